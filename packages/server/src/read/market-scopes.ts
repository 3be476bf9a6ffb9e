import { type Place, type PriceClass, projectClass } from '@cena-metra/contract';
import type { ProjectRow } from './market-projects.js';

/**
 * The market's kept scopes (DESIGN §11.1, use-cases/market-spans.ts): the whole market and every developer,
 * region, city and district with enough projects, each named by a key its requests find it by. A request
 * with more than one filter, or a station's, is a union computed per request (and held in memory).
 */

/** The filters of «Рынок»'s pace (names compared case aside; a station is any of a project's). */
export interface ScopeFilters {
  developerId?: number;
  region?: string;
  city?: string;
  district?: string;
  station?: string;
  priceClass?: PriceClass;
}

/**
 * A project's class as the market's class scope counts it (§12.3): by hand, else the registry's, else its
 * region's price bands at the average ppm of its latest list (over all its lots, whatever the request's status).
 */
export const latestClassOf = (p: Pick<ProjectRow, 'hand_class' | 'registry_class' | 'place' | 'last_ppm'>) =>
  projectClass(p.hand_class, p.registry_class, p.place, p.last_ppm).priceClass;

const PLACES = ['region', 'city', 'district'] as const;

/** Below this many projects a developer's or place's union is computed per request (milliseconds). */
export const KEPT_SCOPE_MIN = 25;

/**
 * A place's name as scopes and filters compare it: case aside (Russian rules). Each name's is made once and
 * held: ICU's lower case costs ~1 µs a call, and a place's filter over the market's 5,000 projects made
 * 10,000 of them (a fair price's segments, a ranking by place).
 */
const lowered = new Map<string, string>();
export function nameKey(name: string): string {
  // a filter's text is the request's: a long one is not held
  if (name.length > 200) return name.toLocaleLowerCase('ru');
  let key = lowered.get(name);
  if (key === undefined) {
    // the names of places and stations are few; a bound all the same against a stream of new ones
    if (lowered.size >= 20_000) lowered.clear();
    key = name.toLocaleLowerCase('ru');
    lowered.set(name, key);
  }
  return key;
}

/** The kept scope a request's filters name, or null when no scope is kept for them. */
export function scopeOf(q: ScopeFilters): string | null {
  const given = [
    q.developerId !== undefined,
    !!q.region,
    !!q.city,
    !!q.district,
    !!q.station,
    !!q.priceClass,
  ];
  const count = given.filter(Boolean).length;
  if (count === 0) return 'market';
  if (count > 1 || q.station) return null;
  if (q.developerId !== undefined) return `developer:${q.developerId}`;
  if (q.priceClass) return `class:${q.priceClass}`;
  for (const kind of PLACES) {
    const name = q[kind];
    if (name) return `${kind}:${nameKey(name)}`;
  }
  return null;
}

/**
 * Every scope kept, with its members in the market list's order: the whole market always, each developer,
 * place and class when it has at least `min` projects (a smaller union is computed per request in milliseconds).
 */
export function keptScopes(projects: ProjectRow[], min = KEPT_SCOPE_MIN): Map<string, ProjectRow[]> {
  const groups = new Map<string, ProjectRow[]>([['market', projects]]);
  const add = (key: string, p: ProjectRow) => {
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  };
  for (const p of projects) {
    add(`developer:${p.developer_id}`, p);
    for (const kind of PLACES) {
      const name = (p.place as Place)[kind];
      if (name) add(`${kind}:${nameKey(name)}`, p);
    }
    const cls = latestClassOf(p);
    if (cls) add(`class:${cls}`, p);
  }
  for (const [key, list] of groups) if (key !== 'market' && list.length < min) groups.delete(key);
  return groups;
}

/** The members of a union and their data versions, in order, as one key (two 32-bit FNV-1a hashes). */
export function membersVersion(projects: Pick<ProjectRow, 'id' | 'data_version'>[]): string {
  let a = 0x811c9dc5;
  let b = 0x3c6ef372;
  for (const p of projects) {
    a = Math.imul(a ^ p.id, 0x01000193);
    a = Math.imul(a ^ p.data_version, 0x01000193);
    b = Math.imul(b ^ p.data_version, 0x85ebca6b);
    b = Math.imul(b ^ p.id, 0xc2b2ae35);
  }
  return `${projects.length}:${a >>> 0}:${b >>> 0}`;
}

/** The market's place filters (§11.3): names compared case aside; a station is any of a project's. */
export interface PlaceFilters {
  region?: string;
  city?: string;
  district?: string;
  station?: string;
}

const same = (a: string | null, b: string) =>
  a !== null && a.toLocaleLowerCase('ru') === b.toLocaleLowerCase('ru');

export function inPlace(place: Place, f: PlaceFilters): boolean {
  if (f.region && !same(place.region, f.region)) return false;
  if (f.city && !same(place.city, f.city)) return false;
  if (f.district && !same(place.district, f.district)) return false;
  if (f.station && !place.stations.some((s) => same(s.name, f.station!))) return false;
  return true;
}

/** A project in a place (as above) and of a class (as on its latest list). */
export function inSegment(p: ProjectRow, f: PlaceFilters & { priceClass?: PriceClass }): boolean {
  return inPlace(p.place, f) && (!f.priceClass || latestClassOf(p) === f.priceClass);
}
