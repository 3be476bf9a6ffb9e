import { ROOM_GROUPS } from '@cena-metra/contract';
import type { ProjectPeriodSums } from '../analytics/hedonic.js';
import { linksOfSums } from '../analytics/hedonic-index.js';
import { ROOM_GROUP_BLOCKS_OF, sumsOfGroups } from '../analytics/hedonic-observations.js';
import type { Db } from '../db/driver.js';
import { encodeLinks } from '../db/kept.js';
import { hedonicMonths } from '../db/queries/hedonic.js';
import { deleteLinks, keptLinkMembers, saveLinks } from '../db/queries/hedonic-links.js';
import type { ProjectRow } from '../read/market-projects.js';
import { KEPT_SCOPE_MIN, keptScopes, membersVersion } from '../read/market-scopes.js';

/**
 * The hedonic index kept (DESIGN §12.4, §11.1): every monthly link of the whole market and of every region,
 * city, district and class large enough (the scopes of «Рынок»'s kept spans but developers, which the index
 * is not asked by), for each rooms group, in `hedonic_link` — so a segment's 3-year index is read and chained,
 * not fitted. Made by the market's rounds after imports (use-cases/market-spans.ts) from the projects' kept
 * months (derive/hedonic.ts); a row is made again when its members' data versions differ from those it was
 * made from, and a reader takes it only while they are the same (else it fits the links itself, the same
 * function of the same sums).
 */

export interface LinksReport {
  /** scopes × rooms groups kept after the round */
  kept: number;
  /** rows made in this round */
  made: number;
  /** the round's time, ms: the months read once and every stale row's fits */
  ms: number;
}

/** The kept scopes of the index: «Рынок»'s but developers'. */
export function hedonicScopes(projects: ProjectRow[], min = KEPT_SCOPE_MIN): Map<string, ProjectRow[]> {
  const scopes = keptScopes(projects, min);
  for (const key of scopes.keys()) if (key.startsWith('developer:')) scopes.delete(key);
  return scopes;
}

/** The links of a union's months: every month from its first with sums to its last. */
export function linksOfMonths(rows: readonly ProjectPeriodSums[]) {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    first = Math.min(first, r.period);
    last = Math.max(last, r.period);
  }
  return rows.length ? linksOfSums(rows, first, last) : [];
}

/** Brings every kept row up to date with the projects' months (a round). */
export async function keepHedonicLinks(db: Db, projects: ProjectRow[], min?: number): Promise<LinksReport> {
  const started = performance.now();
  const scopes = hedonicScopes(projects, min);
  const rows = await keptLinkMembers(db);
  const held = new Map(rows.map((r) => [`${r.scope}\u0000${r.rooms}`, r.members]));
  await deleteLinks(
    db,
    [...new Set(rows.map((r) => r.scope))].filter((s) => !scopes.has(s)),
  );
  const stale: [string, ProjectRow[], string][] = [];
  for (const [scope, members] of scopes) {
    const version = membersVersion(members);
    if (ROOM_GROUPS.some((rooms) => held.get(`${scope}\u0000${rooms}`) !== version))
      stale.push([scope, members, version]);
  }
  const report: LinksReport = { kept: scopes.size * ROOM_GROUPS.length, made: 0, ms: 0 };
  if (stale.length === 0) return report;
  // each member's months read once for every scope (a project is in the market, its places and its class)
  const needed = new Set<number>();
  for (const [, members] of stale) for (const p of members) needed.add(p.id);
  const byProject = new Map<number, ProjectPeriodSums[]>();
  for (const m of await hedonicMonths(db, [...needed], 0, 12 * 1000)) {
    const list = byProject.get(m.project);
    if (list) list.push(m);
    else byProject.set(m.project, [m]);
  }
  for (const rooms of ROOM_GROUPS) {
    const blocks = ROOM_GROUP_BLOCKS_OF[rooms];
    const ofGroups = new Map<number, ProjectPeriodSums[]>();
    for (const [id, months] of byProject)
      ofGroups.set(
        id,
        months.map((m) => sumsOfGroups(m, blocks)),
      );
    for (const [scope, members, version] of stale) {
      // a turn of the event loop between scopes: a server's round (seconds at 5,000 projects) lets its
      // requests through between fits
      await new Promise((turn) => setImmediate(turn));
      const links = linksOfMonths(members.flatMap((p) => ofGroups.get(p.id) ?? []));
      await saveLinks(db, { scope, rooms, members: version, body: encodeLinks(links) });
      report.made++;
    }
  }
  report.ms = performance.now() - started;
  return report;
}
