import { expect, it } from 'vitest';
import { lightHistory } from '../src/analytics/registry.js';
import { decodeHistory } from '../src/db/kept-history.js';
import { migrate } from '../src/db/migrate.js';
import { keptHistory } from '../src/db/queries/registry.js';
import { stateOf } from '../src/registry/state.js';
import { rebuildIfMarked } from '../src/use-cases/rebuild.js';
import { freshDb } from './databases.js';

// Migration 38 on a database whose registry objects were kept with jsonb histories (migration 31): the next
// open makes every history again, as bytes, from the object's states — what an import of them would keep.

it('a registry kept before migration 38 gets its histories as bytes, made from its states, at the next open', async () => {
  const { db, drop } = await freshDb('pglite', 37);
  try {
    const states = [
      {
        day: '2025-01-06',
        eff: { ready: { day: '2026-12-31', quarter: true }, flats: 120, salesRealised: 10 },
      },
      {
        day: '2025-01-13',
        eff: { ready: { day: '2026-12-31', quarter: true }, flats: 120, salesRealised: 14 },
      },
      {
        day: '2025-01-20',
        eff: { ready: { day: '2027-03-31', quarter: true }, flats: 120, salesRealised: 14 },
      },
    ];
    await db.query(
      `insert into registry_object (obj_id, first_day, last_day, state, facts, history)
       values (7, '2025-01-06', '2025-01-20', $1::jsonb, $2::jsonb, $3::jsonb)`,
      [JSON.stringify({ eff: states[2].eff }), JSON.stringify(states[2].eff), JSON.stringify(states)],
    );
    for (const s of states)
      await db.query('insert into registry_state (obj_id, day, state) values (7, $1::date, $2::jsonb)', [
        s.day,
        JSON.stringify({ eff: s.eff }),
      ]);
    // an object of the registry has its raw answers (the pass goes over the objects that have them)
    await db.query(
      "insert into registry_raw (obj_id, kind, day, hash, body) values (7, 'detail', '2025-01-06', 'x', '\\x00')",
    );
    await migrate(db);
    // the jsonb column gone with its values, the pass asked for
    const [column] = await db.query<{ type: string }>(
      "select data_type as type from information_schema.columns where table_name = 'registry_object' and column_name = 'history'",
    );
    expect(column.type).toBe('bytea');
    expect(await keptHistory(db, 7)).toBeNull();
    const said: string[] = [];
    await rebuildIfMarked(db, 2, 7, (line) => said.push(line));
    expect(said).toContain('показатели реестра…');
    const [row] = await db.query<{ history: string }>(
      "select encode(history, 'base64') as history from registry_object where obj_id = 7",
    );
    const expected = lightHistory(
      [],
      states.map((s) => ({ day: s.day, eff: stateOf({ eff: s.eff }).eff })),
    );
    expect(decodeHistory(Buffer.from(row.history, 'base64'))).toEqual(expected);
    expect(expected).toHaveLength(3);
  } finally {
    await drop();
  }
});
