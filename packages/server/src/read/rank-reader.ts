import type { StatsStatus } from '@cena-metra/contract';
import { type RankSummary, rankSummaryOf } from '../analytics/pace-last.js';
import { EMPTY_SUMMARY } from '../analytics/pace-summary.js';
import type { Db } from '../db/driver.js';
import { bytes } from '../db/kept.js';
import {
  covers,
  encodeRankMonth,
  joinRankMonths,
  rankMonthCounts,
  rankStart,
  readFrom,
} from '../db/kept-rank.js';
import { fromDay } from '../lib/days.js';
import { ProjectCache, type ReadCache } from './read-cache.js';

/** A project as the ranking asks for it. */
export interface RankProject {
  id: number;
  data_version: number;
}

/** A kept month as held: its key, its hash, and its snapshots, removals and back days in the summary. */
interface HeldMonth {
  month: number;
  hash: string;
  n: number;
  m: number;
  b: number;
}

/** A project's rank summary as held: its months whose data reach `from` or later, joined. */
interface HeldRank {
  from: number;
  months: HeldMonth[];
  summary: RankSummary;
}

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

// a snapshot: 44 bytes of arrays and 8 of its chain factor (pace-last.ts)
const heldBytes = ({ summary: s, months }: HeldRank) =>
  100 + months.length * 60 + s.dates.length * 52 + s.removalK.length * 12 + s.back.length * 4;

/**
 * The market's rank summaries (db/kept-rank.ts) as a ranking from a day on reads them: the kept months that
 * reach its window, held per project and data version. When a project's data changed, only its months whose
 * bytes changed are read again (each row's md5): a new day changes one month of a project, so the first
 * ranking after a day's import reads about a month a project, not half a year.
 */
export class RankReader {
  private readonly all: ProjectCache<HeldRank>;
  private readonly available: ProjectCache<HeldRank>;

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
          const read = await this.read(db, chunk, status, need, cache);
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
  private async read(
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
      for (const m of held.months) {
        keys[0].push(p.id);
        keys[1].push(fromDay(m.month));
        keys[2].push(m.hash);
      }
    }
    const rows = await db.query<{ project_id: number; m: number; hash: string; body: string | null }>(
      `select r.project_id, r.month - date '1970-01-01' as m, r.hash,
         case when h.hash is null then encode(r.body, 'base64') end as body
       from rank_month r
       left join unnest($4::int[], $5::date[], $6::text[]) as h(p, m, hash)
         on h.p = r.project_id and h.m = r.month and h.hash = r.hash
       where r.status = $1 and r.project_id = any($2::int[]) and r.reach >= $3::date
       order by r.project_id, r.month`,
      [status, chunk.map((p) => p.id), fromDay(need), ...keys],
    );
    const byProject = new Map<number, typeof rows>();
    for (const r of rows) {
      const list = byProject.get(r.project_id);
      if (list) list.push(r);
      else byProject.set(r.project_id, [r]);
    }
    const out = new Map<number, HeldRank>();
    for (const p of chunk) {
      const list = byProject.get(p.id);
      // a project without data from `need` on has nothing in the period
      if (!list) {
        out.set(p.id, { from: need, months: [], summary: EMPTY_RANK });
        continue;
      }
      const held = before.get(p.id);
      const bodies: Uint8Array[] = [];
      const months: HeldMonth[] = [];
      for (const r of list) {
        const body = r.body === null ? reencoded(held!, r.m) : bytes(r.body);
        bodies.push(body);
        months.push({ month: r.m, hash: r.hash, ...rankMonthCounts(body) });
      }
      out.set(p.id, { from: need, months, summary: joinRankMonths(bodies) });
    }
    return out;
  }
}

/** A month of a held summary as its kept bytes again (the same bytes: the hash matched). */
function reencoded(held: HeldRank, month: number): Buffer {
  let k = 0;
  let r = 0;
  for (const m of held.months) {
    if (m.month === month) return encodeRankMonth(held.summary, k, k + m.n, r, r + m.m);
    k += m.n;
    r += m.m;
  }
  throw new Error(`rank_month: month ${month} is not held`);
}
