import type {
  RegistryObject,
  RegistryObjectsResponse,
  RegistryReliabilityResponse,
  RegistryShiftsResponse,
} from '@cena-metra/contract';
import {
  reliabilityOf,
  type StateAt,
  salesByMonth,
  shiftsOf,
  soldOf,
  soldShareOf,
} from '../analytics/registry.js';
import type { Db } from '../db/driver.js';
import { bytes } from '../db/kept.js';
import { decodeHistory } from '../db/kept-history.js';
import { developerExists, projectExists } from '../db/queries/catalog.js';
import {
  type ObjectRow,
  objectsOfDeveloper,
  objectsOfProject,
  registryDays,
  statesOf,
} from '../db/queries/registry.js';
import { NotFoundError } from '../lib/errors.js';
import { classOf, isApartments, type RegistryFacts } from '../registry/answers.js';
import { effectsByDay, stateOf } from '../registry/state.js';
import type { MarketReader } from './market-reader.js';

/**
 * A project's registry objects and a developer's completion shifts (DESIGN §12.3), from the kept states:
 * the figures are analytics/registry.ts's, over each object's states by day.
 */

/** Each object's states by day (its effective facts), in the objects' order. */
export async function historiesOf(db: Db, rows: ObjectRow[]): Promise<StateAt[][]> {
  // the kept light histories (§11.1); the states only of objects kept before them
  const missing = rows.filter((r) => r.history === null).map((r) => r.obj_id);
  const states = missing.length ? await statesOf(db, missing) : new Map();
  return rows.map((r) =>
    r.history !== null ? decodeHistory(bytes(r.history)) : effectsByDay(states.get(r.obj_id) ?? []),
  );
}

function objectOf(row: ObjectRow, history: StateAt[], days: string[]): RegistryObject {
  const eff = stateOf(row.state).eff as RegistryFacts;
  const sold = soldOf(eff);
  return {
    objId: row.obj_id,
    name: eff.name ?? null,
    buildingName: eff.building ?? null,
    building: row.building,
    address: eff.address ?? null,
    developer: eff.devName ?? null,
    group: eff.group ?? null,
    housingClass: classOf(eff) ?? null,
    classRaw: eff.classRaw ?? null,
    ready: eff.ready ?? null,
    transfer: eff.transfer ?? null,
    published: eff.published ?? null,
    shifts: shiftsOf(history),
    flats: sold?.total ?? eff.flats ?? null,
    realised: sold?.realised ?? null,
    soldShare: soldShareOf([eff]),
    escrow: eff.escrow ?? null,
    problem: eff.problem ?? null,
    declaration: eff.declaration ?? null,
    firstDay: row.first_day,
    lastDay: row.last_day,
    match: row.match,
    apartments: isApartments(eff),
    sales: salesByMonth([history], days),
  };
}

export async function registryObjects(db: Db, projectId: number): Promise<RegistryObjectsResponse> {
  if (!(await projectExists(db, projectId))) throw new NotFoundError(`проект ${projectId} не найден`);
  const rows = await objectsOfProject(db, projectId);
  const days = await registryDays(db);
  const all = await historiesOf(db, rows);
  // the project's figures are its flats': its objects of apartments are shown, not counted
  const flats = rows.flatMap((r, i) => (isApartments(stateOf(r.state).eff) ? [] : [i]));
  return {
    objects: rows.map((r, i) => objectOf(r, all[i], days)),
    sales: flats.length
      ? salesByMonth(
          flats.map((i) => all[i]),
          days,
        )
      : [],
    soldShare: soldShareOf(flats.map((i) => stateOf(rows[i].state).eff)),
    lastDay: days.at(-1) ?? null,
  };
}

export async function registryShifts(db: Db, developerId: number): Promise<RegistryShiftsResponse> {
  if (!(await developerExists(db, developerId)))
    throw new NotFoundError(`застройщик ${developerId} не найден`);
  const rows = await objectsOfDeveloper(db, developerId);
  const days = await registryDays(db);
  const all = await historiesOf(db, rows);
  const shifts = all.map(shiftsOf);
  const asOf = days.at(-1) ?? null;
  return {
    reliability: reliabilityOf(shifts, asOf ?? '1970-01-01'),
    shifts: shifts
      .flatMap((list, i) =>
        list.map((s) => ({ ...s, objId: rows[i].obj_id, name: stateOf(rows[i].state).eff.name ?? null })),
      )
      .sort((a, b) => (a.day > b.day ? -1 : a.day < b.day ? 1 : a.objId - b.objId)),
    asOf,
  };
}

/** «Надёжность сроков» of every developer whose projects have registry objects (the developers' table). */
export function registryReliability(db: Db, market: MarketReader): Promise<RegistryReliabilityResponse> {
  return market.registry.answer(
    db,
    'reliability',
    (r) => 200 + r.developers.length * 200,
    () => computeReliability(db, market),
  );
}

async function computeReliability(db: Db, market: MarketReader): Promise<RegistryReliabilityResponse> {
  const developerOf = new Map((await market.projects(db)).map((p) => [p.id, p.developer_id]));
  const objects = await market.registry.objects(db);
  const histories = await market.registry.histories(db);
  const days = await registryDays(db);
  const asOf = days.at(-1) ?? null;
  const byDeveloper = new Map<
    number,
    { shifts: ReturnType<typeof shiftsOf>[]; groups: Map<string, number> }
  >();
  const byGroup = new Map<string, ReturnType<typeof shiftsOf>[]>();
  for (const o of objects) {
    const shifts = shiftsOf(histories.get(o.objId) ?? []);
    // a group over every object of the registry, ours or not
    const group = o.facts.group?.trim();
    if (group) {
      const list = byGroup.get(group) ?? [];
      list.push(shifts);
      byGroup.set(group, list);
    }
    const developerId = o.projectId === null ? undefined : developerOf.get(o.projectId);
    if (developerId === undefined) continue;
    const d = byDeveloper.get(developerId) ?? {
      shifts: [] as ReturnType<typeof shiftsOf>[],
      groups: new Map<string, number>(),
    };
    d.shifts.push(shifts);
    if (group) d.groups.set(group, (d.groups.get(group) ?? 0) + 1);
    byDeveloper.set(developerId, d);
  }
  const at = asOf ?? '1970-01-01';
  return {
    developers: [...byDeveloper]
      .sort(([a], [b]) => a - b)
      .map(([developerId, d]) => ({
        developerId,
        ...reliabilityOf(d.shifts, at),
        group: [...d.groups].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null,
      })),
    groups: [...byGroup]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, shifts]) => ({ group, ...reliabilityOf(shifts, at) })),
    asOf,
  };
}
