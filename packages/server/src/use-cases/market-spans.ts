import { setImmediate } from 'node:timers/promises';
import type { RoomGroup, StatsStatus } from '@cena-metra/contract';
import { PACE_VARIANTS } from '../analytics/pace-summary.js';
import { type UnionSpan, unionSpanSteps } from '../analytics/pace-union.js';
import type { Db } from '../db/driver.js';
import { encodeSpan } from '../db/kept.js';
import {
  deleteSpans,
  keptSpanMembers,
  keptWord,
  lastRound,
  roundProjects,
  saveRound,
  saveSpan,
} from '../db/queries/market-spans.js';
import { forgetPaceChanges } from '../db/queries/pace-tails.js';
import { todayIso } from '../lib/days.js';
import { stepped } from '../lib/steps.js';
import type { ProjectRow } from '../read/market-projects.js';
import type { MarketReader } from '../read/market-reader.js';
import { KEPT_SCOPE_MIN, keptScopes, membersVersion } from '../read/market-scopes.js';
import { keepHedonicLinks, type LinksReport } from './hedonic-links.js';
import {
  type Append,
  appendedSpan,
  appendOf,
  encodeVersions,
  readChanges,
  readTails,
} from './span-append.js';

/**
 * The market's pace and index kept (DESIGN §11.1, §12): the whole span of the whole market and of every
 * developer, region, city and district with at least KEPT_SCOPE_MIN projects (read/market-scopes.ts), for every status × rooms
 * filter, in `market_span` — so «Рынок»'s pace chart is read, not swept, after a restart, on another
 * instance or a replica. A span is made again when its members' data versions differ from those it was
 * made from; a reader takes a kept span only while they are the same, so a span not yet made again is
 * never served for newer data (it is computed then, the same function of the same summaries).
 *
 * A scope's span is a sweep over every member (a day of the market is 5,000 projects' summaries), so it is
 * not made in each import's transaction: every import schedules a round (`MarketKeeper`), which runs after
 * a short pause gathering the imports around it, at most one at a time across processes (a lock), on a
 * timer — its progress does not wait for traffic or a quiet moment. A command (the CLI) runs its round
 * before it exits; `rebuild` makes every span again. The round keeps the hedonic index's links too.
 */

export interface KeepReport {
  /** scopes × filters kept after the round */
  kept: number;
  /** spans made in this round (the others were current) */
  made: number;
  /** of them, those brought up to date from their members' tails (span-append.ts) */
  appended: number;
  /** the slowest span's time, ms: its filter's summaries read (once for every scope) and its sweep */
  slowestMs: number;
  /** which span that was, and its time's two parts (ms) */
  slowest: { scope: string; status: string; rooms: string; readMs: number; sweepMs: number } | null;
  /** the hedonic index's links kept in the same round (use-cases/hedonic-links.ts) */
  links: LinksReport;
}

/** Brings every kept span up to date with the projects' data (a round). */
export async function keepMarketSpans(
  db: Db,
  market: MarketReader,
  options: { min?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<KeepReport> {
  // nothing changed since the last round finished (a server's round after a command's, a burst's last):
  // two digests read, not the market's list and every scope's members (~0.3 s of a server's thread)
  const min = options.min ?? KEPT_SCOPE_MIN;
  const inputs = `${await roundProjects(db)}.${min}`;
  const last = await lastRound(db);
  if (last && last.inputs === `${inputs}.${await keptWord(db)}`)
    return {
      kept: last.kept,
      made: 0,
      appended: 0,
      slowestMs: 0,
      slowest: null,
      links: { kept: last.links, made: 0, windows: 0, refit: 0, ms: 0 },
    };
  const projects = await market.projects(db);
  const scopes = keptScopes(projects, min);
  const held = new Map(
    (await keptSpanMembers(db)).map((r) => [`${r.scope}\u0000${r.status}\u0000${r.rooms}`, r]),
  );
  const gone = new Set([...held.keys()].map((k) => k.split('\u0000')[0]).filter((s) => !scopes.has(s)));
  await deleteSpans(db, [...gone]);
  const changes = await readChanges(db);
  const report: KeepReport = {
    kept: 0,
    made: 0,
    appended: 0,
    slowestMs: 0,
    slowest: null,
    links: { kept: 0, made: 0, windows: 0, refit: 0, ms: 0 },
  };
  const total = scopes.size * PACE_VARIANTS.length;
  for (const filter of PACE_VARIANTS) {
    const { status, rooms } = filter;
    const stale: Stale[] = [];
    for (const [scope, members] of scopes) {
      const version = membersVersion(members);
      const kept = held.get(`${scope}\u0000${status}\u0000${rooms}`);
      if (kept?.members !== version) stale.push({ scope, members, version, held: kept?.versions ?? null });
    }
    report.kept += scopes.size;
    if (stale.length === 0) continue;
    // a span whose members moved from a day on is brought up to date from their tails (span-append.ts)
    const whole: Stale[] = [];
    const appends: Append[] = [];
    // each with the time of its kept span's reading (its part of the «computed» time)
    const readMs = new Map<string, number>();
    for (const st of stale) {
      const t = performance.now();
      const a = await appendOf(db, st.scope, st.members, st.version, filter, st.held, changes);
      readMs.set(st.scope, performance.now() - t);
      if (a) appends.push(a);
      else whole.push(st);
    }
    if (appends.length) {
      const started = performance.now();
      const ids = new Set<number>();
      for (const a of appends) for (const p of a.members) ids.add(p.id);
      const tails = await readTails(db, filter, [...ids]);
      const read = performance.now() - started;
      for (const a of appends) {
        await setImmediate();
        const swept = performance.now();
        const span = await appendedSpan(a, tails);
        if (!span) {
          whole.push({ ...a, held: null });
          continue;
        }
        slower(report, a.scope, filter, readMs.get(a.scope)! + read, performance.now() - swept);
        await save(db, a, filter, span);
        report.made++;
        report.appended++;
      }
    }
    if (whole.length) await makeWhole(db, market, filter, whole, report);
    options.onProgress?.(report.kept, total);
  }
  // the changes every span is now made after are not read again
  await forgetPaceChanges(
    db,
    projects.map((p) => p.id),
    projects.map((p) => p.data_version),
  );
  report.links = await keepHedonicLinks(db, projects, min);
  await saveRound(db, {
    inputs: `${inputs}.${await keptWord(db)}`,
    kept: report.kept,
    links: report.links.kept,
  });
  return report;
}

/** A span's time (its reading, its sweep) kept as the slowest when it is. */
function slower(
  report: KeepReport,
  scope: string,
  filter: { status: string; rooms: string },
  readMs: number,
  sweepMs: number,
): void {
  if (readMs + sweepMs <= report.slowestMs) return;
  report.slowestMs = readMs + sweepMs;
  report.slowest = { scope, ...filter, readMs, sweepMs };
}

/** A span to make: its scope, its members now and their digest, and the versions it was made from. */
interface Stale {
  scope: string;
  members: ProjectRow[];
  version: string;
  held: string | null;
}

const save = (
  db: Db,
  s: Pick<Stale, 'scope' | 'members' | 'version'>,
  filter: { status: string; rooms: string },
  span: UnionSpan,
) =>
  saveSpan(db, {
    ...filter,
    scope: s.scope,
    members: s.version,
    body: encodeSpan(span),
    versions: encodeVersions(s.members),
  });

/**
 * Spans made whole: each member's summary read once for every scope of the filter (a project is in the
 * market, its region, city and district): the whole market's time is the reading and its sweep.
 */
async function makeWhole(
  db: Db,
  market: MarketReader,
  filter: { status: StatsStatus; rooms: RoomGroup },
  whole: Stale[],
  report: KeepReport,
): Promise<void> {
  const started = performance.now();
  const needed = new Map<number, ProjectRow>();
  for (const { members } of whole) for (const p of members) needed.set(p.id, p);
  await setImmediate();
  const summaries = await market.summaries(db, [...needed.values()], filter.status, filter.rooms);
  const read = performance.now() - started;
  for (const st of whole) {
    // a turn of the event loop between spans: PGlite's queries never leave the loop, so a server's round
    // would otherwise hold every request until its end (~0.5 s for one project after a restart)
    await setImmediate();
    const swept = performance.now();
    // the sweep in slices of the thread too: the whole market's is ~0.3 s of it (lib/steps.ts)
    const span = await stepped(unionSpanSteps(st.members.map((p) => summaries.get(p.id)!)));
    slower(report, st.scope, filter, read, performance.now() - swept);
    await save(db, st, filter, span);
    report.made++;
  }
}

/** A round under the lock: one at a time across the processes of one database. */
export const keepMarketSpansLocked = (db: Db, market: MarketReader, min?: number) =>
  db.withLock('market-spans', () => keepMarketSpans(db, market, { min }));

/** Of a server's thread, the most its rounds take while imports keep coming (a day of 5,000 lists). */
export const ROUNDS_SHARE = 0.15;

/**
 * How long the next round waits: `pauseMs` (the imports around a change gathered), and from the last round's
 * end at least `gapMs` and as long as that round took × (1 − share) / share — a round of 30 s at 5,000 projects
 * runs at most every 3 min 20 s of a burst, not every 30 s (it would take half the thread from the imports).
 */
export function roundWait(o: {
  now: number;
  lastEnd: number;
  lastMs: number;
  pauseMs: number;
  gapMs: number;
  share?: number;
}): number {
  const share = o.share ?? ROUNDS_SHARE;
  const gap = Math.max(o.gapMs, (o.lastMs * (1 - share)) / share);
  return Math.max(o.pauseMs, o.lastEnd + gap - o.now);
}

/**
 * A server's rounds: `schedule()` after each change starts one `pauseMs` later (the imports of a burst
 * gathered into one), and no sooner than `roundWait` says after the last one ended; never two at once.
 */
export class MarketKeeper {
  private timer: NodeJS.Timeout | null = null;
  /** the list read again `pauseMs` after the last change, whenever the next round comes */
  private listTimer: NodeJS.Timeout | null = null;
  private listing: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private lastEnd = 0;
  /** the last round's time, ms */
  private lastMs = 0;

  constructor(
    private readonly db: Db,
    private readonly market: MarketReader,
    /** a round that failed, or the list not read after a round that ended */
    private readonly onError: (error: unknown, what: 'round' | 'list') => void,
    private readonly options: {
      pauseMs?: number;
      /** the least time from a round's end to the next one's start */
      gapMs?: number;
      min?: number;
      onRound?: (r: KeepReport) => void;
    } = {},
  ) {}

  schedule(): void {
    if (this.closed) return;
    // the market's list of the new data held once the changes pause (a burst's rounds wait their share of
    // the thread: a request after the burst would otherwise read the list itself, ~0.2 s at 5,000 projects)
    if (this.listTimer) clearTimeout(this.listTimer);
    this.listTimer = setTimeout(() => this.holdAhead(), this.options.pauseMs ?? 2000);
    if (this.running) {
      this.again = true;
      return;
    }
    // a burst of imports (a day of 5,000 lists) gets a round now and then, not one after each: a round
    // reads every member's summaries (seconds at that scale) on this process's thread
    const wait = roundWait({
      now: Date.now(),
      lastEnd: this.lastEnd,
      lastMs: this.lastMs,
      pauseMs: this.options.pauseMs ?? 2000,
      gapMs: this.options.gapMs ?? 30_000,
    });
    this.timer ??= setTimeout(() => this.run(), wait);
  }

  /**
   * The market's list read, and «Рынок»'s first ranking's months held (read/market-reader.ts
   * `holdFirstRanking`), in the background: at a server's start and `pauseMs` after the last change.
   */
  holdAhead(): void {
    this.listTimer = null;
    if (this.closed) return;
    this.listing = this.readAhead()
      .catch((e) => this.onError(e, 'list'))
      .finally(() => {
        this.listing = null;
      });
  }

  private async readAhead(): Promise<void> {
    await this.market.projects(this.db);
    await this.market.holdFirstRanking(this.db, todayIso());
  }

  private run(): void {
    this.timer = null;
    const started = Date.now();
    this.running = keepMarketSpansLocked(this.db, this.market, this.options.min)
      .then((report) => this.options.onRound?.(report))
      .then(
        // the market's list of projects of the data the round saw, and «Рынок»'s first ranking, held for the
        // requests that come next (a round that found nothing to make reads nothing of them; «Рынок», the index
        // and the fair price select from the list)
        () => this.readAhead().catch((e) => this.onError(e, 'list')),
        (e) => this.onError(e, 'round'),
      )
      .finally(() => {
        this.running = null;
        this.lastEnd = Date.now();
        this.lastMs = this.lastEnd - started;
        if (this.again) {
          this.again = false;
          this.schedule();
        }
      });
  }

  /** Waits until no round is scheduled or running (a test; a server closing). */
  async idle(): Promise<void> {
    if (this.listTimer) {
      clearTimeout(this.listTimer);
      // a round reads the list when it ends
      if (this.timer || this.running) this.listTimer = null;
      else this.holdAhead();
    }
    while (this.timer || this.running) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.run();
      }
      await this.running;
    }
    await this.listing;
  }

  /** No round after this one; the running one ends before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.listTimer) clearTimeout(this.listTimer);
    this.timer = null;
    this.listTimer = null;
    await this.running;
    await this.listing;
  }
}
