import { watchRulesSchema } from '@cena-metra/contract';
import { type AlertEvent, matchAlerts, type WatchItem } from '../analytics/alerts.js';
import type { Db } from '../db/driver.js';
import {
  advanceAlertCursors,
  eventsToAlert,
  firstSeenOf,
  insertAlerts,
  projectsToAlert,
  type WatchRow,
  watchRowsOf,
} from '../db/queries/alerts.js';
import { fromDay, toDay } from '../lib/days.js';

export interface AlertReport {
  projects: number;
  events: number;
  alerts: number;
}

/** A stored watch as the rules read it. */
export function watchItem(r: WatchRow): WatchItem & { userId: number } {
  return {
    id: r.id,
    userId: r.user_id,
    flatId: r.flat_id,
    building: r.building,
    rooms: r.rooms,
    maxPrice: r.max_price,
    finish: r.finish,
    rules: watchRulesSchema.parse(JSON.parse(r.rules)),
    since: toDay(r.since),
  };
}

/**
 * The alerts of every watched project whose data changed since the last computation (issue 17): its events
 * from the last day computed before (or the earliest watch's first day) through its latest, matched with
 * its watched items by the rules of analytics/alerts.ts, stored once per (item, event) — the unique key
 * makes a second computation of the same events, a rebuild's or another instance's, add nothing. Runs
 * after each import and collection, in one transaction and a fixed number of queries however many
 * projects changed.
 */
export async function computeAlerts(db: Db): Promise<AlertReport> {
  return db.transaction(async (tx) => {
    const projects = await projectsToAlert(tx);
    if (projects.length === 0) return { projects: 0, events: 0, alerts: 0 };
    const ids = projects.map((p) => p.id);
    const byProject = new Map<number, (WatchItem & { userId: number })[]>();
    for (const r of await watchRowsOf(tx, ids))
      byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), watchItem(r)]);
    // each project's events from its earliest watch's first day, or the last day computed (a later import
    // of that day can change its events: it is read again)
    const froms = projects.map((p) => {
      const earliest = Math.min(...(byProject.get(p.id) ?? []).map((w) => w.since));
      return fromDay(p.through === null ? earliest : Math.max(earliest, toDay(p.through)));
    });
    const rows = await eventsToAlert(tx, ids, froms);
    const fresh = [...new Set(rows.filter((r) => r.kind === 'NEW').map((r) => r.flat_id))];
    const firstSeen = new Map<number, number>();
    if (fresh.length)
      for (const r of await firstSeenOf(tx, ids, fresh)) firstSeen.set(r.flat_id, toDay(r.first));
    const events = new Map<number, (AlertEvent & { area: number })[]>();
    for (const r of rows) {
      const list = events.get(r.project_id) ?? [];
      list.push({
        day: toDay(r.day),
        flatId: r.flat_id,
        kind: r.kind,
        building: r.building,
        rooms: r.rooms,
        area: r.area,
        facing: r.facing,
        oldPrice: r.old_price,
        newPrice: r.new_price,
        changePercent: r.change_percent,
        firstSeen: firstSeen.get(r.flat_id) ?? null,
      });
      events.set(r.project_id, list);
    }
    const matched = projects.flatMap((p) =>
      matchAlerts(byProject.get(p.id) ?? [], events.get(p.id) ?? []).map((m) => ({ ...m, projectId: p.id })),
    );
    let alerts = 0;
    if (matched.length) {
      const col = <T>(f: (m: (typeof matched)[number]) => T) => matched.map(f);
      alerts = await insertAlerts(tx, {
        watchIds: col((m) => m.watch.id),
        userIds: col((m) => m.watch.userId),
        projectIds: col((m) => m.projectId),
        kinds: col((m) => m.kind),
        days: col((m) => fromDay(m.event.day)),
        flatIds: col((m) => m.event.flatId),
        buildings: col((m) => m.event.building),
        rooms: col((m) => m.event.rooms),
        areas: col((m) => m.event.area),
        oldPrices: col((m) => m.event.oldPrice),
        newPrices: col((m) => m.event.newPrice),
        changePercents: col((m) => m.event.changePercent),
      });
    }
    await advanceAlertCursors(
      tx,
      ids,
      projects.map((p) => p.data_version),
      projects.map((p, i) => p.last ?? froms[i]),
    );
    return { projects: projects.length, events: rows.length, alerts };
  });
}
