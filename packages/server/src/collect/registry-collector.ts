import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/driver.js';
import { dueRows } from '../db/queries/registry.js';
import type { Source } from '../db/queries/sources.js';
import { printable } from '../ingest/snapshot.js';
import { toDay } from '../lib/days.js';
import { answerHash, readAnswer } from '../registry/answers.js';
import type { SavedAnswer } from '../registry/files.js';
import { FetchError, type FetchOptions, fetchList } from './fetch.js';

/**
 * A day of the state registry collected from наш.дом.рф (DESIGN §12.3): a source of kind `domrf` whose URL is
 * the list's (`…/сервисы/api/kn/object?place=77&place=50` or `place=77,50`: the regions followed; no `place`
 * is the whole country), paged, one request at a time and at most `ratePerSecond` of them, every one through
 * the address guard (fetch.ts). The list names every object; the detail and the sales are asked only for
 * objects that are due: new, their list entry changed, a change whose detail did not come (a failed object is
 * retried next run), or a detail older than a week. What came is returned as answers for the one door
 * (use-cases/registry.ts `applyRegistryImport`); nothing is imported here.
 */

export interface RegistryFetchOptions extends FetchOptions {
  /** requests a second at most (default 2) */
  ratePerSecond?: number;
  /** objects a list page asks for (default 100) */
  pageSize?: number;
  /** every object's detail at least this often, days (default 7) */
  refreshDays?: number;
  /** told after each request: the requests so far and the objects the lists named */
  onProgress?: (p: { requests: number; objects: number }) => void;
}

export const REGISTRY_DEFAULTS = { ratePerSecond: 2, pageSize: 100, refreshDays: 7 } as const;

/** List pages asked for at most per region (100 a page: 100,000 objects, eight times the country's). */
export const MAX_LIST_PAGES = 1000;

export interface RegistryFetched {
  answers: SavedAnswer[];
  requests: number;
  bytes: number;
  /** objects the lists named */
  objects: number;
  /** of which whose detail and sales were asked */
  asked: number;
  /** what did not come, each naming its region or object */
  failures: string[];
  /** a list could not be read whole: objects after the failed page were not seen */
  listFailed: boolean;
}

/** Where the source's answers are: the list's URL for each region, the object's and its sales'. */
export function registryPlan(url: string) {
  const u = new URL(url);
  const at = u.pathname.indexOf('/kn/object');
  const base = `${u.origin}${(at >= 0 ? u.pathname.slice(0, at) : u.pathname).replace(/\/+$/, '')}`;
  const places = u.searchParams
    .getAll('place')
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  const list = (place: string | null, offset: number, limit: number) => {
    const l = new URL(at >= 0 ? `${u.origin}${u.pathname}` : `${base}/kn/object`);
    for (const [k, v] of u.searchParams)
      if (k !== 'place' && k !== 'offset' && k !== 'limit') l.searchParams.append(k, v);
    for (const [k, v] of Object.entries({
      sortField: 'obj_publ_dt',
      sortType: 'asc',
      objStatus: '0',
      residentialBuildings: '1',
    }))
      if (!l.searchParams.has(k)) l.searchParams.set(k, v);
    l.searchParams.set('offset', String(offset));
    l.searchParams.set('limit', String(limit));
    if (place !== null) l.searchParams.set('place', place);
    return l.toString();
  };
  return {
    places: places.length ? places : [null],
    list,
    detail: (objId: number) => `${base}/object/${objId}`,
    sales: (objId: number) => `${base}/object/${objId}/sales_agg`,
  };
}

/** One request at a time, their starts at least 1/rate apart. */
class Pace {
  private last = 0;
  constructor(private readonly gapMs: number) {}
  async turn() {
    const wait = this.last + this.gapMs - Date.now();
    if (wait > 0) await sleep(wait);
    this.last = Date.now();
  }
}

/** Which listed objects are due for their detail and sales on `day` (see the module's comment). */
export async function dueObjects(
  db: Db,
  entries: Map<number, unknown>,
  day: string,
  refreshDays: number = REGISTRY_DEFAULTS.refreshDays,
): Promise<Set<number>> {
  const d = toDay(day);
  const due = new Set<number>();
  for (const r of await dueRows(db, [...entries.keys()], day, d)) {
    const detail = r.detail_day === null ? null : Number(r.detail_day);
    if (detail === d) continue;
    const changed = answerHash(JSON.stringify(entries.get(r.obj_id))) !== r.list_hash;
    const missed = r.list_day !== null && (detail === null || toDay(r.list_day) > detail);
    if (detail === null || changed || missed || d - detail >= refreshDays) due.add(r.obj_id);
  }
  return due;
}

/** Fetches the day's answers of a `domrf` source (see the module's comment). */
export async function fetchRegistryDay(
  db: Db,
  source: Source,
  day: string,
  options: RegistryFetchOptions = {},
): Promise<RegistryFetched> {
  const o = { ...REGISTRY_DEFAULTS, ...options };
  const plan = registryPlan(source.url);
  const pace = new Pace(1000 / o.ratePerSecond);
  const out: RegistryFetched = {
    answers: [],
    requests: 0,
    bytes: 0,
    objects: 0,
    asked: 0,
    failures: [],
    listFailed: false,
  };
  const entries = new Map<number, unknown>();
  const get = async (url: string): Promise<unknown> => {
    await pace.turn();
    out.requests++;
    o.onProgress?.({ requests: out.requests, objects: entries.size });
    const got = await fetchList(url, { ...o, headers: source.headers });
    if (got.status !== 'ok') throw new FetchError('сервер ответил 304 на запрос без условий', 304);
    out.bytes += got.bytes;
    try {
      return JSON.parse(got.body.toString('utf8'));
    } catch {
      throw new FetchError('не JSON', got.httpStatus);
    }
  };
  const failed = (what: string, error: unknown) =>
    out.failures.push(`${what}: ${printable((error as Error).message).slice(0, 300)}`);

  // the list, region by region, page by page (an object in two regions' lists is one entry)
  for (const place of plan.places) {
    const region = place === null ? 'вся страна' : `регион ${place}`;
    for (let page = 0, offset = 0; page < MAX_LIST_PAGES; page++) {
      let body: unknown;
      try {
        body = await get(plan.list(place, offset, o.pageSize));
      } catch (error) {
        failed(`${region}, список с ${offset}`, error);
        out.listFailed = true;
        break;
      }
      const read = readAnswer(body);
      out.answers.push({ day, source: `${source.name}: ${region}, список с ${offset}`, read, raw: body });
      if ('error' in read || read.kind !== 'list') {
        if (!('error' in read)) failed(`${region}, список с ${offset}`, new Error('ответ не список'));
        out.listFailed = true;
        break;
      }
      for (const entry of read.objects) if ('facts' in entry) entries.set(entry.objId, entry.raw);
      const listed = (body as { data?: { list?: unknown[] } }).data?.list?.length ?? 0;
      offset += listed;
      if (listed === 0 || (read.total !== undefined && offset >= read.total)) break;
    }
  }
  out.objects = entries.size;

  // the detail and the sales of the objects due, in the order of their numbers
  const due = [...(await dueObjects(db, entries, day, o.refreshDays))].sort((a, b) => a - b);
  for (const objId of due) {
    out.asked++;
    let detail: unknown;
    try {
      detail = await get(plan.detail(objId));
    } catch (error) {
      failed(`объект ${objId}`, error);
      continue;
    }
    out.answers.push({
      day,
      source: `${source.name}: объект ${objId}`,
      read: readAnswer(detail, objId),
      raw: detail,
    });
    try {
      const sales = await get(plan.sales(objId));
      out.answers.push({
        day,
        source: `${source.name}: продажи объекта ${objId}`,
        read: readAnswer(sales, objId),
        raw: sales,
      });
    } catch (error) {
      failed(`продажи объекта ${objId}`, error);
    }
  }
  return out;
}
