import { ROOM_GROUPS } from '@cena-metra/contract';
import { fitSumsSteps, type ProjectPeriodSums } from '../analytics/hedonic.js';
import {
  HEDONIC_WINDOW,
  type HedonicLink,
  linksOfSums,
  linksOfSumsSteps,
} from '../analytics/hedonic-index.js';
import { groupSums, ROOM_GROUP_BLOCKS_OF } from '../analytics/hedonic-observations.js';
import type { Db } from '../db/driver.js';
import {
  decodeFairFit,
  decodeLinks,
  decodeWindows,
  encodeFairFit,
  encodeLinks,
  encodeWindows,
  type LinkWindows,
} from '../db/kept.js';
import { hedonicMonths, hedonicStamps } from '../db/queries/hedonic.js';
import { deleteLinks, keptLinkRows, saveLinks } from '../db/queries/hedonic-links.js';
import { Slices, stepped } from '../lib/steps.js';
import type { ProjectRow } from '../read/market-projects.js';
import { KEPT_SCOPE_MIN, keptScopes, membersVersion } from '../read/market-scopes.js';
import { mergeLinks, periodsToRefit, runsOf, stampsByProject, windowsOf } from './hedonic-windows.js';

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
  /** the windows of the rows made, and how many of them were fitted again (the others were as kept) */
  windows: number;
  refit: number;
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

/** Projects whose months one query reads. */
const READ_PART = 500;

/** A stale row of a round: its members, their version, and the windows to fit again. */
interface Plan {
  scope: string;
  rooms: string;
  members: ProjectRow[];
  version: string;
  windows: LinkWindows;
  refit: number[];
  kept: HedonicLink[];
  /** the latest window's period when its fit is made in this round (fairFitScope), else null */
  fitAt: number | null;
  /** the fit kept with the row, taken as is when its window is as kept */
  keptFit: Uint8Array | null;
}

/** Whether a kept row keeps its latest window's fit: rooms «all» of the segments a fair price is fitted over. */
export const fairFitScope = (scope: string, rooms: string) =>
  rooms === 'all' && (scope === 'market' || scope.startsWith('region:') || scope.startsWith('city:'));

/**
 * Which fit a stale row keeps: none (not a fair price's segment), the kept one (its window as kept), or one
 * made for its latest period.
 */
function fitPlan(
  scope: string,
  rooms: string,
  windows: LinkWindows,
  refit: readonly number[],
  kept: Uint8Array | null,
): { fitAt: number | null; keptFit: Uint8Array | null } {
  const count = windows.hashes.length / 2;
  if (!fairFitScope(scope, rooms) || count === 0) return { fitAt: null, keptFit: null };
  const last = windows.first + count - 1;
  if (kept && refit.at(-1) !== last && decodeFairFit(kept).month === last)
    return { fitAt: null, keptFit: kept };
  return { fitAt: last, keptFit: null };
}

/**
 * Brings every kept row up to date with the projects' months (a round): a row whose members' data versions
 * moved is made again from its kept links and the windows whose months were rewritten (use-cases/
 * hedonic-windows.ts) — the same links as a fit of every window, fitted for the windows that changed alone.
 */
export async function keepHedonicLinks(db: Db, projects: ProjectRow[], min?: number): Promise<LinksReport> {
  const started = performance.now();
  const scopes = hedonicScopes(projects, min);
  const rows = await keptLinkRows(db);
  const held = new Map(rows.map((r) => [`${r.scope}\u0000${r.rooms}`, r]));
  await deleteLinks(
    db,
    [...new Set(rows.map((r) => r.scope))].filter((s) => !scopes.has(s)),
  );
  const report: LinksReport = {
    kept: scopes.size * ROOM_GROUPS.length,
    made: 0,
    windows: 0,
    refit: 0,
    ms: 0,
  };
  const stale: [string, ProjectRow[], string][] = [];
  for (const [scope, members] of scopes) {
    const version = membersVersion(members);
    if (ROOM_GROUPS.some((rooms) => held.get(`${scope}\u0000${rooms}`)?.members !== version))
      stale.push([scope, members, version]);
  }
  if (stale.length === 0) return report;
  const needed = new Set<number>();
  for (const [, members] of stale) for (const p of members) needed.add(p.id);
  const stamps = stampsByProject(await hedonicStamps(db, [...needed]));
  const plans: Plan[] = [];
  for (const [scope, members, version] of stale) {
    const windows = windowsOf(
      members.map((p) => p.id),
      stamps,
    );
    for (const rooms of ROOM_GROUPS) {
      const row = held.get(`${scope}\u0000${rooms}`);
      const current = row?.windows ? { windows: decodeWindows(row.windows), body: row.body } : null;
      const refit = periodsToRefit(current?.windows ?? null, windows);
      plans.push({
        scope,
        rooms,
        members,
        version,
        windows,
        refit,
        kept: current && refit.length < windows.hashes.length / 2 ? decodeLinks(current.body) : [],
        ...fitPlan(scope, rooms, windows, refit, current ? (row?.fit ?? null) : null),
      });
      report.windows += windows.hashes.length / 2;
      report.refit += refit.length;
    }
  }
  // the months the windows fitted again reach back to, of their members
  let from = Number.POSITIVE_INFINITY;
  const read = new Set<number>();
  for (const plan of plans) {
    const start = Math.min(plan.refit[0] ?? Number.POSITIVE_INFINITY, plan.fitAt ?? Number.POSITIVE_INFINITY);
    if (start === Number.POSITIVE_INFINITY) continue;
    from = Math.min(from, start - HEDONIC_WINDOW + 1);
    for (const p of plan.members) read.add(p.id);
  }
  // the fits in slices of the thread (lib/steps.ts): a window of the whole market is tens of ms, and a
  // server's requests get through between the slices of a round, not only between its rows
  const slices = new Slices();
  const save = async (plan: Plan, months: ReadonlyMap<number, ProjectPeriodSums[]>) => {
    await slices.turn();
    const rows =
      plan.refit.length || plan.fitAt !== null ? plan.members.flatMap((p) => months.get(p.id) ?? []) : [];
    const fitted: HedonicLink[] = [];
    for (const [a, b] of runsOf(plan.refit))
      fitted.push(...(await stepped(linksOfSumsSteps(rows, a, b), slices)));
    const fit =
      plan.fitAt === null
        ? null
        : await stepped(fitSumsSteps(rows, plan.fitAt - HEDONIC_WINDOW + 1, plan.fitAt), slices);
    await saveLinks(db, {
      scope: plan.scope,
      rooms: plan.rooms,
      members: plan.version,
      windows: encodeWindows(plan.windows),
      body: encodeLinks(mergeLinks(plan.kept, fitted, plan.windows, plan.refit)),
      fit: fit ? encodeFairFit(plan.fitAt!, fit) : plan.keptFit,
    });
    report.made++;
  };
  // read in parts of projects (the answer's bytes held a part at a time), each month's sums held once: a rooms
  // group's block is a view of them, all rooms their sum (sumsOfGroups)
  const months = new Map<number, ProjectPeriodSums[]>();
  const ids = [...read];
  for (let at = 0; at < ids.length; at += READ_PART)
    for (const m of await hedonicMonths(db, ids.slice(at, at + READ_PART), from, 12 * 1000)) {
      const list = months.get(m.project);
      if (list) list.push(m);
      else months.set(m.project, [m]);
    }
  for (const rooms of ROOM_GROUPS) {
    const blocks = ROOM_GROUP_BLOCKS_OF[rooms];
    const ofGroups = new Map<number, ProjectPeriodSums[]>();
    for (const [id, list] of months) {
      await slices.turn();
      ofGroups.set(
        id,
        list.map((m) => groupSums(m, blocks)),
      );
    }
    for (const plan of plans) if (plan.rooms === rooms) await save(plan, ofGroups);
  }
  report.ms = performance.now() - started;
  return report;
}
