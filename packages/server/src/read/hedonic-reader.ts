import type { CompareResponse, HedonicRequest, HedonicResponse, RoomGroup } from '@cena-metra/contract';
import {
  HEDONIC_WINDOW,
  type HedonicLink,
  indexOfLinks,
  indexOfSums,
  linksOfSums,
  linksOfSumsSteps,
} from '../analytics/hedonic-index.js';
import {
  MONTHS,
  monthOfDay,
  monthStartDay,
  projectMonthSums,
  ROOM_GROUP_BLOCKS_OF,
  sumsOfGroups,
  WEEKS,
} from '../analytics/hedonic-observations.js';
import { round2 } from '../analytics/stats.js';
import { DEFAULT_CARRY_DAYS } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { bytes, decodeLinks } from '../db/kept.js';
import { hedonicMonths, segmentsBetween } from '../db/queries/hedonic.js';
import { keptLinks } from '../db/queries/hedonic-links.js';
import { fromDay, toDay } from '../lib/days.js';
import { BadRequestError, NotFoundError } from '../lib/errors.js';
import { stepped } from '../lib/steps.js';
import { MarketProjects, type ProjectRow } from './market-projects.js';
import { inSegment, membersVersion, scopeOf } from './market-scopes.js';
import type { ReadCache } from './read-cache.js';

/** A request as parsed (DESIGN §12.4): the segment, the rooms group, the months from `from`'s to `to`'s. */
type Query = Pick<HedonicRequest, 'region' | 'city' | 'district' | 'priceClass'> & {
  from: string;
  to: string;
  rooms: RoomGroup;
  step?: 'month' | 'week';
};

/** Weeks in a weekly point's rolling window (a quarter; the months' is a year and a month). */
export const HEDONIC_WEEKS_WINDOW = 13;
/** The most weeks a request's weekly points span (two years). */
export const HEDONIC_WEEKS_MAX = 104;
/** The most projects a segment's weekly points are fitted over per request (they are not kept). */
export const HEDONIC_WEEKS_MAX_PROJECTS = 600;

const round = (v: number | null) => (v === null ? null : round2(v));

/**
 * The hedonic index of a segment (DESIGN §12.4): its projects — those of the place and class asked, as
 * «Рынок» selects them — and their kept sums of the months the periods' windows span; each month's link
 * fitted from them, the links chained. Held per set of the members' data versions.
 */
export class HedonicReader {
  private readonly list: MarketProjects;

  constructor(
    private readonly shared: ReadCache,
    private readonly carry = DEFAULT_CARRY_DAYS,
    /** the most projects of a segment's weekly points */
    private readonly weeksMaxProjects = HEDONIC_WEEKS_MAX_PROJECTS,
  ) {
    this.list = new MarketProjects(shared);
  }

  /**
   * «Сравнение» by the hedonic index (DESIGN §12.4): each project's own, its lots against each other month
   * by month (a segment of one project), 100 at its first month of the period.
   */
  async compare(db: Db, q: { projectIds: number[]; from: string; to: string }): Promise<CompareResponse> {
    const found = await this.list.select(db, { ids: q.projectIds });
    const unknown = q.projectIds.filter((id) => !found.some((p) => p.id === id));
    if (unknown.length) throw new NotFoundError(`проект ${unknown.join(', ')} не найден`);
    const from = monthOfDay(toDay(q.from));
    const to = monthOfDay(toDay(q.to));
    const months = await hedonicMonths(db, q.projectIds, from - HEDONIC_WINDOW + 1, to);
    const byId = new Map(found.map((p) => [p.id, p]));
    return {
      metric: 'hedonic',
      series: q.projectIds.map((id) => {
        const p = byId.get(id)!;
        const own = months
          .filter((m) => m.project === id)
          .map((m) => sumsOfGroups(m, ROOM_GROUP_BLOCKS_OF.all));
        return {
          projectId: id,
          projectName: p.name,
          developerName: p.developer_name,
          place: p.place,
          points: indexOfSums(own, from, to).points.map((point) => ({
            date: fromDay(monthStartDay(point.period)),
            value: round2(point.index),
          })),
        };
      }),
    };
  }

  /**
   * The segment's links of [from, to]: the kept ones (use-cases/hedonic-links.ts) while they were made from
   * these members' data, else fitted here from their months — the same function of the same sums.
   */
  private async links(db: Db, members: ProjectRow[], version: string, q: Query): Promise<HedonicLink[]> {
    const scope = scopeOf(q);
    const kept = scope === null ? null : await keptLinks(db, scope, q.rooms);
    if (kept && kept.members === version) return decodeLinks(bytes(kept.body));
    const from = monthOfDay(toDay(q.from));
    const to = monthOfDay(toDay(q.to));
    const months = await hedonicMonths(
      db,
      members.map((p) => p.id),
      from - HEDONIC_WINDOW + 1,
      to,
    );
    // in slices of the thread (the whole market's 3 years are ~40 window fits): other requests get through
    return stepped(
      linksOfSumsSteps(
        months.map((m) => sumsOfGroups(m, ROOM_GROUP_BLOCKS_OF[q.rooms])),
        from,
        to,
      ),
    );
  }

  /**
   * A segment's weekly links of [from, to] (weeks, DESIGN §12.4 «weekly when asked»): fitted per request from
   * its projects' timelines over the weeks and the window before them — not kept, so a segment of at most
   * HEDONIC_WEEKS_MAX_PROJECTS projects.
   */
  private async weekLinks(db: Db, members: ProjectRow[], q: Query, from: number, to: number) {
    if (members.length > this.weeksMaxProjects)
      throw new BadRequestError(
        `step: недельные точки считаются для сегмента до ${this.weeksMaxProjects} проектов, в этом ${members.length} — выберите регион, город или класс`,
      );
    if (to - from + 1 > HEDONIC_WEEKS_MAX)
      throw new BadRequestError(`step: недельные точки — не больше чем за ${HEDONIC_WEEKS_MAX} недели`);
    const first = from - HEDONIC_WEEKS_WINDOW + 1;
    const read = await segmentsBetween(
      db,
      members.map((p) => p.id),
      WEEKS.start(first),
      WEEKS.end(to),
    );
    const sums = [...read].flatMap(([id, { dates, segments }]) =>
      projectMonthSums(id, dates, segments.values(), this.carry, first, to, WEEKS),
    );
    return linksOfSums(
      sums.map((m) => sumsOfGroups(m, ROOM_GROUP_BLOCKS_OF[q.rooms])),
      from,
      to,
      HEDONIC_WEEKS_WINDOW,
    );
  }

  async index(db: Db, q: Query): Promise<HedonicResponse> {
    const members = (await this.list.select(db, {})).filter((p) => inSegment(p, q));
    const week = q.step === 'week';
    const calendar = week ? WEEKS : MONTHS;
    const from = calendar.of(toDay(q.from));
    const to = calendar.of(toDay(q.to));
    const key = `hedonic:${[q.region, q.city, q.district, q.priceClass, q.rooms, q.step, from, to].map((v) => v ?? '').join(':')}`;
    const version = membersVersion(members);
    const held = this.shared.get<HedonicResponse>(key, version);
    if (held) return held;
    const links = week
      ? await this.weekLinks(db, members, q, from, to)
      : await this.links(db, members, version, q);
    const { points, dropped } = indexOfLinks(links.filter((l) => l.period >= from && l.period <= to));
    const response: HedonicResponse = {
      points: points.map((p) => ({
        date: fromDay(calendar.start(p.period)),
        index: round2(p.index),
        change: round(p.change),
        low: round2(p.low),
        high: round2(p.high),
        observations: p.observations,
        projects: p.projects,
        avgMeterPrice: round2(p.avgMeterPrice),
        priceEffect: round(p.priceEffect),
        mixEffect: round(p.mixEffect),
      })),
      dropped,
    };
    this.shared.set(key, version, response, () => 200 * points.length);
    return response;
  }
}
