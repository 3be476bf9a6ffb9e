import fc from 'fast-check';
import { expect, it } from 'vitest';
import { chessboard } from '../src/analytics/chess.js';
import { readSegments } from '../src/db/records.js';
import { importSnapshots } from '../src/ingest/batch.js';
import { Importer } from '../src/ingest/importer.js';
import { fromDay, toDay } from '../src/lib/days.js';
import { lowerBound } from '../src/lib/sorted.js';
import { ChessReader } from '../src/read/chess-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { describeEachDb } from './databases.js';
import { PROJECT_TABLES, toSnapshot } from './kept-data.js';
import { marketArb } from './random-market.js';

// The chessboard reader reads two segments a flat (its latest by the day, the one running on «since»),
// found by index (DESIGN §11.1). Held here to the board drawn from each flat's whole timeline, on random
// markets (flicker, gaps, buildings, reserved lots) and random days, buildings and «since» days.
describeEachDb('the chessboard reader', (ctx) => {
  it('draws the same board as the whole timeline would, for any day, building and since', async () => {
    await fc.assert(
      fc.asyncProperty(
        marketArb,
        fc.array(fc.integer({ min: -5, max: 500 }), { minLength: 4, maxLength: 4 }),
        async (market, picks) => {
          await ctx.db.query(`truncate ${PROJECT_TABLES} restart identity cascade`);
          const importer = new Importer(ctx.db, market.grace, market.carry);
          for (const [p, snaps] of market.projects.entries())
            if (snaps.length)
              await importSnapshots(
                importer,
                snaps.map((s) => toSnapshot(p, s)),
              );
          const reader = new ChessReader(market.carry, new ReadCache());
          for (const { id: projectId } of await ctx.db.query<{ id: number }>('select id from project')) {
            const dates = (
              await ctx.db.query<{ d: string }>(
                'select date::text as d from snapshot where project_id = $1 order by date',
                [projectId],
              )
            ).map((r) => toDay(r.d));
            const timeline = [...(await readSegments(ctx.db, projectId)).values()];
            const firstSeen = new Map(
              (
                await ctx.db.query<{ id: number; f: string }>(
                  'select id, first_seen::text as f from flat where project_id = $1 and first_seen is not null',
                  [projectId],
                )
              ).map((r) => [r.id, toDay(r.f)]),
            );
            const [dayPick, sincePick, buildingPick, withSince] = picks;
            const date = fromDay(dates[0] + dayPick);
            const since = withSince % 2 ? fromDay(dates[0] + sincePick) : undefined;
            const first = await reader.chess(ctx.db, { projectId, date, since });
            if (first.buildings.length === 0) continue;
            const building = first.buildings[Math.abs(buildingPick) % first.buildings.length];
            for (const q of [
              { projectId, date, since },
              { projectId, date, since, building },
            ]) {
              const res = await reader.chess(ctx.db, q);
              const cells = [...res.sections.flatMap((s) => s.floors.flatMap((f) => f.cells)), ...res.strip];
              if (res.date === null || res.building === null) {
                expect(cells).toEqual([]);
                continue;
              }
              // the snapshots the reader read the day and «since» from: the last on or before each
              const at = (d: string) => dates[lowerBound(dates, toDay(d) + 1) - 1];
              const reference = chessboard(
                timeline,
                firstSeen,
                res.building,
                toDay(res.date),
                at(res.date),
                dates.at(-1)!,
                res.since === null ? null : toDay(res.since),
                res.since === null ? null : at(res.since),
              );
              const expected = [
                ...reference.sections.flatMap((s) => s.floors.flatMap((f) => f.cells)),
                ...reference.strip,
              ];
              const view = (c: {
                flatId: number;
                state: string;
                price: number;
                priceSince: number | null;
                daysOnMarket: number;
              }) => [c.flatId, c.state, c.price, c.priceSince, c.daysOnMarket];
              expect(cells.map((c) => view(c))).toEqual(
                expected.map((c) => view({ ...c, price: c.rec.price })),
              );
            }
          }
        },
      ),
      { numRuns: ctx.kind === 'pglite' ? 40 : 20, seed: 20261125 },
    );
  });
});
