import { type EventKind, type Facing, type RoomGroup, watchRulesSchema } from '@cena-metra/contract';
import { type AlertEvent, matchAlerts, type WatchItem } from '../analytics/alerts.js';
import type { Db } from '../db/driver.js';
import { fromDay, toDay } from '../lib/days.js';

export interface AlertReport {
  projects: number;
  events: number;
  alerts: number;
}

interface WatchRow {
  id: number;
  user_id: number;
  flat_id: number | null;
  building: string | null;
  rooms: RoomGroup;
  max_price: number | null;
  finish: Facing | null;
  rules: string;
  since: string;
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
    const projects = await tx.query<{
      id: number;
      data_version: number;
      through: string | null;
      last: string | null;
    }>(
      `select p.id, p.data_version, c.through::text as through, p.last_snapshot_date::text as last from project p
       left join alert_cursor c on c.project_id = p.id
       where exists (select 1 from watch w where w.project_id = p.id)
         and c.data_version is distinct from p.data_version
       order by p.id`,
    );
    if (projects.length === 0) return { projects: 0, events: 0, alerts: 0 };
    const ids = projects.map((p) => p.id);
    const byProject = new Map<number, (WatchItem & { userId: number })[]>();
    for (const r of await tx.query<WatchRow & { project_id: number }>(
      `select id, user_id, project_id, flat_id, building, rooms, max_price, finish, rules, since::text as since
       from watch where project_id = any($1::int[]) order by id`,
      [ids],
    ))
      byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), watchItem(r)]);
    // each project's events from its earliest watch's first day, or the last day computed (a later import
    // of that day can change its events: it is read again)
    const froms = projects.map((p) => {
      const earliest = Math.min(...(byProject.get(p.id) ?? []).map((w) => w.since));
      return fromDay(p.through === null ? earliest : Math.max(earliest, toDay(p.through)));
    });
    const rows = await tx.query<{
      project_id: number;
      day: string;
      flat_id: number;
      kind: EventKind;
      building: string;
      rooms: number;
      area: number;
      facing: Facing;
      old_price: number | null;
      new_price: number | null;
      change_percent: number | null;
    }>(
      `select e.project_id, e.day::text as day, e.flat_id, e.kind, e.building, e.rooms, e.area, e.facing,
         e.old_price, e.new_price, e.change_percent
       from unnest($1::int[], $2::date[]) as t(p, d)
       join flat_event e on e.project_id = t.p and e.day >= t.d
       where e.kind <> 'AREA_CHANGED' order by e.project_id, e.day, e.flat_id`,
      [ids, froms],
    );
    const fresh = [...new Set(rows.filter((r) => r.kind === 'NEW').map((r) => r.flat_id))];
    const firstSeen = new Map<number, number>();
    if (fresh.length)
      for (const r of await tx.query<{ flat_id: number; first: string }>(
        `select id as flat_id, first_seen::text as first from flat
         where project_id = any($1::int[]) and id = any($2::int[]) and first_seen is not null`,
        [ids, fresh],
      ))
        firstSeen.set(r.flat_id, toDay(r.first));
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
      const inserted = await tx.query(
        `insert into watch_alert (watch_id, user_id, project_id, kind, day, flat_id, building, rooms, area,
           old_price, new_price, change_percent)
         select * from unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::date[], $6::int[], $7::text[],
           $8::int[], $9::float8[], $10::bigint[], $11::bigint[], $12::float8[])
         on conflict (watch_id, day, flat_id, kind) do nothing returning id`,
        [
          col((m) => m.watch.id),
          col((m) => m.watch.userId),
          col((m) => m.projectId),
          col((m) => m.kind),
          col((m) => fromDay(m.event.day)),
          col((m) => m.event.flatId),
          col((m) => m.event.building),
          col((m) => m.event.rooms),
          col((m) => m.event.area),
          col((m) => m.event.oldPrice),
          col((m) => m.event.newPrice),
          col((m) => m.event.changePercent),
        ],
      );
      alerts = inserted.length;
    }
    await tx.query(
      `insert into alert_cursor (project_id, data_version, through)
       select * from unnest($1::int[], $2::int[], $3::date[])
       on conflict (project_id) do update set data_version = excluded.data_version, through = excluded.through`,
      [ids, projects.map((p) => p.data_version), projects.map((p, i) => p.last ?? froms[i])],
    );
    return { projects: projects.length, events: rows.length, alerts };
  });
}
