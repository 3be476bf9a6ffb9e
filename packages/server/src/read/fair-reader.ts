import type {
  BelowComparablesRequest,
  BelowComparablesResponse,
  FairResponse,
  RoomGroup,
} from '@cena-metra/contract';
import type { FairFit, HedonicObservation } from '../analytics/hedonic.js';
import { fitSumsSteps } from '../analytics/hedonic.js';
import { type Candidate, comparables, fairValue, kmBetween } from '../analytics/hedonic-fair.js';
import { HEDONIC_WINDOW } from '../analytics/hedonic-index.js';
import {
  groupSums,
  monthObservations,
  monthOfDay,
  monthStartDay,
  ROOM_GROUP_BLOCKS_OF,
} from '../analytics/hedonic-observations.js';
import { round2 } from '../analytics/stats.js';
import type { Segment } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { decodeFairFit } from '../db/kept.js';
import { developerExists } from '../db/queries/catalog.js';
import { flatProject, hedonicMonths, latestActiveSegments } from '../db/queries/hedonic.js';
import { keptFairFit } from '../db/queries/hedonic-links.js';
import { fromDay } from '../lib/days.js';
import { NotFoundError } from '../lib/errors.js';
import { stepped } from '../lib/steps.js';
import { MarketProjects, type ProjectRow } from './market-projects.js';
import { inPlace, inSegment, latestClassOf, membersVersion, nameKey, scopeOf } from './market-scopes.js';
import type { ReadCache } from './read-cache.js';

/** An active flat as an observation with its rooms, floor and the km from a fair price's flat (a candidate). */
type PeerObservation = Candidate & { floor: number | null };

/**
 * An observation with the rest of a candidate's fields, written out: a spread (`{ ...o, km }`) made each
 * object key by key, ~40 % of a fair price's own time with its collection in a profile of 40 of them.
 */
const peerObservation = (
  o: HedonicObservation,
  rooms: number,
  floor: number | null,
  km: number | null,
): PeerObservation => ({
  period: o.period,
  project: o.project,
  flat: o.flat,
  price: o.price,
  area: o.area,
  roomGroup: o.roomGroup,
  floorBand: o.floorBand,
  finish: o.finish,
  keysBand: o.keysBand,
  rooms,
  floor,
  km,
});

/** The segment's projects of a class listed in the month, each with its active flats as observations. */
type PeerFlats = { peer: ProjectRow; observations: PeerObservation[] }[];

/** A held fit's bytes besides its projects' effects (its coefficients, covariance, periods). */
const FIT_BYTES = 64 * 1024;

/**
 * A flat's fair price and comparables (DESIGN §12.4): the window ending with its project's latest month,
 * fitted over the projects of its city (else its region, else the whole market — the first that prices
 * it); its comparables among the active flats of the same city and class on their projects' latest lists
 * of that month. Held per flat and set of the segment's data versions.
 */
export class FairReader {
  private readonly list: MarketProjects;

  constructor(
    private readonly shared: ReadCache,
    private readonly carry: number,
  ) {
    this.list = new MarketProjects(shared);
  }

  async fair(db: Db, flatId: number): Promise<FairResponse> {
    const at = await flatProject(db, flatId);
    if (!at) throw new NotFoundError(`квартира ${flatId} не найдена`);
    const projects = await this.list.select(db, {});
    const project = projects.find((p) => p.id === at.projectId);
    if (!project) throw new NotFoundError(`квартира ${flatId} не найдена`);
    const month = monthOfDay(at.day);
    const place = project.place;
    const key = `fair:${flatId}`;
    const version = membersVersion(projects);
    const held = this.shared.get<FairResponse>(key, version);
    if (held) return held;
    const own = await latestActiveSegments(db, [project.id]);
    const target = this.observationsOf(project.id, own).find((o) => o.flat === flatId);
    if (!target) throw new NotFoundError(`квартира ${flatId} не в продаже в последнем списке проекта`);
    const chosen = await this.fitFor(db, project, projects, month, new Map());
    if (!chosen || !fairValue(chosen.fit, target))
      throw new NotFoundError(
        `для квартиры ${flatId} нет справедливой цены: в её проекте меньше 5 наблюдений`,
      );
    const fair = fairValue(chosen.fit, target)!;
    // comparables: the same city (the chosen segment) and class, listed in the same month
    const cls = latestClassOf(project);
    const peers = chosen.members.filter((p) => latestClassOf(p) === cls);
    const candidates: Candidate[] = [];
    for (const { peer, observations } of await this.peersOf(db, chosen.name, cls, month, peers)) {
      const km =
        place.latitude !== null &&
        place.longitude !== null &&
        peer.place.latitude !== null &&
        peer.place.longitude !== null
          ? kmBetween(
              { latitude: place.latitude, longitude: place.longitude },
              { latitude: peer.place.latitude, longitude: peer.place.longitude },
            )
          : null;
      for (const o of observations) candidates.push(peerObservation(o, o.rooms, o.floor, km));
    }
    const names = new Map(peers.map((p) => [p.id, p.name]));
    const response: FairResponse = {
      flatId,
      price: target.price,
      area: target.area,
      month: fromDay(monthStartDay(month)),
      segment: chosen.name,
      fairPrice: Math.round(fair.fairPrice),
      fairMeterPrice: round2(fair.fairMeterPrice),
      premium: round2(fair.premium),
      comparables: comparables(chosen.fit, target, candidates).map((c) => ({
        flatId: c.candidate.flat,
        projectId: c.candidate.project,
        projectName: names.get(c.candidate.project) ?? '',
        rooms: c.candidate.rooms,
        area: c.candidate.area,
        price: c.candidate.price,
        adjustedPrice: Math.round(c.adjustedPrice),
        adjustment: round2(c.adjustment),
        km: c.candidate.km === null ? null : Math.round(c.candidate.km * 10) / 10,
      })),
    };
    this.shared.set(key, version, response, () => 2_000);
    return response;
  }

  /**
   * The fit of the window ending with `month` over the project's segment: its city's projects, else its
   * region's, else the whole market's — the first whose fit has the project. Fits are kept in `fits` by
   * segment and month for the rest of a request.
   */
  private async fitFor(
    db: Db,
    project: ProjectRow,
    projects: ProjectRow[],
    month: number,
    fits: Map<string, Promise<FairFit | null>>,
  ): Promise<{ name: string; members: ProjectRow[]; fit: FairFit } | null> {
    const place = project.place;
    const segments: [string, ProjectRow[], string][] = [];
    if (place.city)
      segments.push([
        place.city,
        projects.filter((p) => inPlace(p.place, { city: place.city! })),
        scopeOf({ city: place.city })!,
      ]);
    if (place.region)
      segments.push([
        place.region,
        projects.filter((p) => inPlace(p.place, { region: place.region! })),
        scopeOf({ region: place.region })!,
      ]);
    segments.push(['весь рынок', projects, 'market']);
    for (const [name, members, scope] of segments) {
      const key = `${nameKey(name)}:${month}`;
      let fit = fits.get(key);
      if (!fit) {
        // held across requests while the segment's members' data are the same (a city's window is tens of
        // MB of sums read and a fit of ~100 ms at 5,000 projects; its flats are asked for one after another)
        const shared = `hedonic-fit:${key}`;
        const version = membersVersion(members);
        const held = this.shared.get<FairFit | null>(shared, version);
        fit =
          held !== undefined
            ? Promise.resolve(held)
            : this.fitOf(db, scope, members, version, month).then((made) => {
                this.shared.set(
                  shared,
                  version,
                  made,
                  () => FIT_BYTES + 64 * (made?.projectEffect.size ?? 0),
                );
                return made;
              });
        fits.set(key, fit);
      }
      const made = await fit;
      if (made?.projectEffect.has(project.id) && made.delta.has(month)) return { name, members, fit: made };
    }
    return null;
  }

  /**
   * The fit of the window ending with `month` over a segment's members: the one the market's round kept with the
   * segment's links (use-cases/hedonic-links.ts) while it was made from these members' data for this month,
   * else fitted from their kept months.
   */
  private async fitOf(
    db: Db,
    scope: string,
    members: ProjectRow[],
    version: string,
    month: number,
  ): Promise<FairFit | null> {
    const kept = await keptFairFit(db, scope);
    if (kept?.members === version) {
      const { month: made, fit } = decodeFairFit(kept.fit);
      if (made === month) return fit;
    }
    const months = await hedonicMonths(
      db,
      members.map((p) => p.id),
      month - HEDONIC_WINDOW + 1,
      month,
    );
    // in slices of the thread (a whole market's window is tens of ms): other requests get through
    return stepped(
      fitSumsSteps(
        months.map((m) => groupSums(m, ROOM_GROUP_BLOCKS_OF.all)),
        month - HEDONIC_WINDOW + 1,
        month,
      ),
    );
  }

  /**
   * «Ниже аналогов» (DESIGN §12.4): the active flats of the selection on their projects' latest lists whose
   * price is at least `threshold` % below their fair price, the cheapest against it first.
   */
  async belowComparables(
    db: Db,
    q: Omit<BelowComparablesRequest, 'rooms' | 'threshold' | 'limit'> & {
      rooms: RoomGroup;
      threshold: number;
      limit: number;
    },
  ): Promise<BelowComparablesResponse> {
    if (q.developerId !== undefined && !(await developerExists(db, Number(q.developerId))))
      throw new NotFoundError(`застройщик ${q.developerId} не найден`);
    const projects = await this.list.select(db, {});
    const chosen = projects.filter(
      (p) => (q.developerId === undefined || p.developer_id === q.developerId) && inSegment(p, q),
    );
    const key = `below:${[q.developerId, q.region, q.city, q.district, q.station, q.priceClass, q.rooms, q.threshold, q.limit].map((v) => v ?? '').join(':')}`;
    const version = membersVersion(projects);
    const held = this.shared.get<BelowComparablesResponse>(key, version);
    if (held) return held;
    const active = await latestActiveSegments(
      db,
      chosen.map((p) => p.id),
    );
    const groups = ROOM_GROUP_BLOCKS_OF[q.rooms];
    const fits = new Map<string, Promise<FairFit | null>>();
    const below: BelowComparablesResponse['rows'] = [];
    let priced = 0;
    for (const project of chosen) {
      const entry = active.get(project.id);
      if (!entry) continue;
      const segment = await this.fitFor(db, project, projects, monthOfDay(entry.day), fits);
      if (!segment) continue;
      for (const o of this.observationsOf(project.id, active)) {
        if (!groups.includes(o.roomGroup)) continue;
        const fair = fairValue(segment.fit, o);
        if (!fair) continue;
        priced++;
        if (fair.premium > -q.threshold) continue;
        below.push({
          flatId: o.flat,
          projectId: project.id,
          projectName: project.name,
          developerName: project.developer_name,
          segment: segment.name,
          rooms: o.rooms,
          area: o.area,
          floor: o.floor,
          price: o.price,
          meterPrice: round2(o.price / o.area),
          fairPrice: Math.round(fair.fairPrice),
          premium: round2(fair.premium),
        });
      }
    }
    below.sort((a, b) => a.premium - b.premium || a.flatId - b.flatId);
    const response = { rows: below.slice(0, q.limit), total: below.length, priced };
    this.shared.set(key, version, response, () => 300 * response.rows.length + 100);
    return response;
  }

  /**
   * The active flats of the segment's projects of one class listed in `month` (a flat's comparables are among
   * them), held while those projects' data are the same: the flats of one city are asked for one after another,
   * and reading a city's lots on sale is most of a first answer.
   */
  private async peersOf(db: Db, segment: string, cls: string | null, month: number, peers: ProjectRow[]) {
    const key = `fair-peers:${nameKey(segment)}:${cls}:${month}`;
    const version = membersVersion(peers);
    const held = this.shared.get<PeerFlats>(key, version);
    if (held) return held;
    const active = await latestActiveSegments(
      db,
      peers.map((p) => p.id),
    );
    const out: PeerFlats = [];
    let flats = 0;
    for (const peer of peers) {
      const entry = active.get(peer.id);
      if (!entry || monthOfDay(entry.day) !== month) continue;
      const observations = this.observationsOf(peer.id, active);
      flats += observations.length;
      out.push({ peer, observations });
    }
    this.shared.set(key, version, out, () => 1024 + 256 * flats);
    return out;
  }

  /** A project's observations of its latest month, from its segments active on its latest list's day. */
  private observationsOf(
    projectId: number,
    active: Map<number, { day: number; segments: Map<number, Segment[]> }>,
  ): PeerObservation[] {
    const entry = active.get(projectId);
    if (!entry) return [];
    const month = monthOfDay(entry.day);
    return monthObservations(projectId, [entry.day], entry.segments.values(), this.carry, month, month).map(
      (o) => {
        const rec = entry.segments.get(o.flat)![0].rec;
        return peerObservation(o, rec.rooms, rec.floor, null);
      },
    );
  }
}
