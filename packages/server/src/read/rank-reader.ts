import type { StatsStatus } from '@cena-metra/contract';
import { type RankSummary, rankSummaryOf } from '../analytics/pace-last.js';
import { EMPTY_SUMMARY } from '../analytics/pace-summary.js';
import type { Db } from '../db/driver.js';
import {
  covers,
  encodeRankMonth,
  joinRankMonths,
  rankMonthCounts,
  rankStart,
  readFrom,
} from '../db/kept-rank.js';
import { rankMonthsReaching } from '../db/queries/kept-pace.js';
import { fromDay } from '../lib/days.js';
import { ProjectCache, type ReadCache } from './read-cache.js';

/** A project as the ranking asks for it. */
export interface RankProject {
  id: number;
  data_version: number;
}

/**
 * A project's rank summary as held: its months whose data reach `from` or later, joined; of each month its
 * key, its snapshots and its removals (`months`, three numbers a month) and its md5 (32 hex digits each in
 * `hashes`) — two objects a project, not two a month: 5,000 projects' held months were 40,000 small objects
 * that every full collection of the server marked.
 */
interface HeldRank {
  from: number;
  months: Int32Array;
  hashes: string;
  summary: RankSummary;
}

const NO_MONTHS = new Int32Array(0);

/** The rank summary of a project without data in the period. */
const EMPTY_RANK: RankSummary = rankSummaryOf(EMPTY_SUMMARY);
/**
 * A ranking reads its missing projects' months CHUNK projects a query, QUERIES queries at a time: two, as
 * the machine of the reference market has cores (PostgreSQL encodes one while this process decodes the
 * other). A query's rows are base64 text until it ends: ten queries at once (46 MB of text for the whole
 * country) outlived the young generation together, and collecting them took longer than reading them.
 */
const QUERIES = 2;
const CHUNK = 500;

/**
 * The ranking's own share of the read cache (ReadCache.part; read/market-reader.ts holds its projects' day
 * figures and its unions' day sums there too), so the projects' pages opened before «Рынок»'s first request
 * do not push out what was computed ahead for it: its first view of the whole country holds ~36 MB of months
 * (4 of each of 5,000 projects), a period reaching a month further ~45 MB.
 */
export const RANK_CACHE_BYTES = 64 * 1024 * 1024;

// a snapshot: 44 bytes of arrays and 8 of its chain factor (pace-last.ts)
const heldBytes = ({ summary: s, months, hashes }: HeldRank) =>
  200 + months.length * 4 + hashes.length + s.dates.length * 52 + s.removalK.length * 12 + s.back.length * 4;

/**
 * The market's rank summaries (db/kept-rank.ts) as a ranking from a day on reads them: the kept months that
 * reach its window, held per project and data version. When a project's data changed, only its months whose
 * bytes changed are read again (each row's md5): a new day changes one month of a project, so the first
 * ranking after a day's import reads about a month a project, not half a year.
 */
export class RankReader {
  private readonly all: ProjectCache<HeldRank>;
  private readonly available: ProjectCache<HeldRank>;
  /** the months being read ahead (`hold`): a ranking waits for them, not reading them beside it */
  private holding: Promise<unknown> | null = null;

  constructor(cache: ReadCache) {
    this.all = new ProjectCache(cache, 'rank-all', heldBytes);
    this.available = new ProjectCache(cache, 'rank-available', heldBytes);
  }

  /**
   * Each project's rank summary for a ranking of [from, to]: its months from `rankStart(from, to)` on
   * (held, or read), and for a project whose last day with data in the period looks back before those
   * (its data end within a month of `from`), from the month of `from` − 31 on.
   */
  async ranks(
    db: Db,
    projects: RankProject[],
    status: StatsStatus,
    from: number,
    to: number,
  ): Promise<Map<number, RankSummary>> {
    if (this.holding) await this.holding;
    return this.read(db, projects, status, from, to);
  }

  /**
   * Reads ahead what a ranking will read (`what` says it, and is what it returns; null: nothing): marked at
   * once, so a ranking asked meanwhile waits for it; one after another (a server's start, its first round's
   * end, its pause after imports): the later finds the months the earlier held.
   */
  hold<W extends { projects: RankProject[]; status: StatsStatus; from: number; to: number }>(
    db: Db,
    what: () => Promise<W | null>,
  ): Promise<W | null> {
    const before = this.holding;
    const run = (async () => {
      if (before) await before;
      const w = await what();
      if (w) await this.read(db, w.projects, w.status, w.from, w.to);
      return w;
    })();
    const held = run.catch(() => undefined);
    this.holding = held;
    return run.finally(() => {
      if (this.holding === held) this.holding = null;
    });
  }

  private async read(
    db: Db,
    projects: RankProject[],
    status: StatsStatus,
    from: number,
    to: number,
  ): Promise<Map<number, RankSummary>> {
    const cache = status === 'ALL' ? this.all : this.available;
    const out = new Map<number, RankSummary>();
    const take = async (list: RankProject[], need: number) => {
      const missing: RankProject[] = [];
      for (const p of list) {
        const held = cache.held(p.id, p.data_version);
        if (held && held.from <= need && covers(held.summary, held.from, from, to))
          out.set(p.id, held.summary);
        else missing.push(p);
      }
      // in chunks, QUERIES at a time: on PostgreSQL each its own connection, PGlite one after another
      const chunks: RankProject[][] = [];
      for (let at = 0; at < missing.length; at += CHUNK) chunks.push(missing.slice(at, at + CHUNK));
      const short: RankProject[] = [];
      let next = 0;
      const worker = async () => {
        while (next < chunks.length) {
          const chunk = chunks[next++];
          const read = await this.readChunk(db, chunk, status, need, cache);
          for (const p of chunk) {
            const held = read.get(p.id)!;
            cache.keep(p.id, p.data_version, held);
            out.set(p.id, held.summary);
            if (!covers(held.summary, held.from, from, to)) short.push(p);
          }
        }
      };
      await Promise.all(Array.from({ length: QUERIES }, worker));
      return short;
    };
    const short = await take(projects, rankStart(from, to));
    if (short.length) await take(short, readFrom(from));
    return out;
  }

  /**
   * The chunk's months reaching `need`, in one query (one snapshot of the data): the body of each month the
   * project's held summary (of an earlier version, or from a later day) does not have with the same hash.
   */
  private async readChunk(
    db: Db,
    chunk: RankProject[],
    status: StatsStatus,
    need: number,
    cache: ProjectCache<HeldRank>,
  ): Promise<Map<number, HeldRank>> {
    const before = new Map<number, HeldRank>();
    const keys: [number[], string[], string[]] = [[], [], []];
    for (const p of chunk) {
      const held = cache.peek(p.id);
      if (!held) continue;
      before.set(p.id, held);
      for (let i = 0; i < held.months.length / 3; i++) {
        keys[0].push(p.id);
        keys[1].push(fromDay(held.months[3 * i]));
        keys[2].push(held.hashes.slice(32 * i, 32 * i + 32));
      }
    }
    // the bodies as bytes (COPY's binary format on PostgreSQL): the whole country's months are ~30 MB
    // rows as COPY gives them: [project_id, month, hash, body] (body null: the held month is the same)
    const rows = await rankMonthsReaching(
      db,
      status,
      chunk.map((p) => p.id),
      fromDay(need),
      keys,
    );
    // each project's rows are consecutive (ordered by project): its first row and how many
    const byProject = new Map<number, [number, number]>();
    for (const [i, [id]] of rows.entries()) {
      const at = byProject.get(id);
      if (at) at[1]++;
      else byProject.set(id, [i, 1]);
    }
    const out = new Map<number, HeldRank>();
    for (const p of chunk) {
      const at = byProject.get(p.id);
      // a project without data from `need` on has nothing in the period
      if (!at) {
        out.set(p.id, { from: need, months: NO_MONTHS, hashes: '', summary: EMPTY_RANK });
        continue;
      }
      const held = before.get(p.id);
      const [first, count] = at;
      const bodies: Uint8Array[] = new Array(count);
      const months = new Int32Array(3 * count);
      const hashes: string[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const [, month, hash, stored] = rows[first + i];
        const body = stored === null ? reencoded(held!, month) : stored;
        bodies[i] = body;
        if (hash.length !== 32) throw new Error('rank_month: a hash is not an md5 in hex');
        const { n, m } = rankMonthCounts(body);
        months[3 * i] = month;
        months[3 * i + 1] = n;
        months[3 * i + 2] = m;
        hashes[i] = hash;
      }
      // one flat string (a string added to a string is a rope of several objects)
      out.set(p.id, { from: need, months, hashes: hashes.join(''), summary: joinRankMonths(bodies) });
    }
    return out;
  }
}

/** A month of a held summary as its kept bytes again (the same bytes: the hash matched). */
function reencoded(held: HeldRank, month: number): Buffer {
  let k = 0;
  let r = 0;
  const { months } = held;
  for (let i = 0; i < months.length; i += 3) {
    const [n, m] = [months[i + 1], months[i + 2]];
    if (months[i] === month) return encodeRankMonth(held.summary, k, k + n, r, r + m);
    k += n;
    r += m;
  }
  throw new Error(`rank_month: month ${month} is not held`);
}
