import { createHash } from 'node:crypto';
import { isIsoDate } from '@cena-metra/contract';
import type { FlatRecord } from '../analytics/types.js';
import { cleanName, normaliseFinish, normaliseSettlementDate } from './normalise.js';

/** A validated, normalised snapshot: one project's whole price list on one date. */
export interface Snapshot {
  date: string;
  developer: string;
  project: string;
  flats: { externalId: string; rec: FlatRecord }[];
  source: string;
}

/** Where a snapshot came from, for messages: «file.json: [2].» or «file.ndjson: строка 5: ». */
export interface Origin {
  file: string;
  /** e.g. "[2]" for the third snapshot of a JSON array, "строка 5" for NDJSON */
  at?: string;
}

export class SnapshotValidationError extends Error {
  constructor(readonly errors: string[]) {
    super(
      errors.slice(0, 20).join('\n') + (errors.length > 20 ? `\n… и ещё ${errors.length - 20} ошибок` : ''),
    );
  }
}

const MAX_ERRORS = 100;

function describe(value: unknown): string {
  if (value === undefined) return 'нет значения';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return `получено ${text.length > 60 ? `${text.slice(0, 57)}…` : text}`;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim().replace(',', '.'));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return cleanName(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

const MAX_PRICE = 1e12;
const MAX_AREA = 100_000;

/**
 * Validates and normalises one raw snapshot object (DESIGN §3.2). Collects every problem, each naming
 * the file, the snapshot's place in it and the field; returns the snapshot or throws them all.
 */
export function validateSnapshot(
  raw: unknown,
  origin: Origin,
  source = 'json',
  flatField: (i: number, field: string) => string = (i, field) => `flats[${i}]${field ? `.${field}` : ''}`,
): Snapshot {
  const errors: string[] = [];
  const prefix = origin.at ? `${origin.file}: ${origin.at}: ` : `${origin.file}: `;
  const fail = (field: string, message: string, value: unknown) => {
    if (errors.length < MAX_ERRORS) errors.push(`${prefix}${field}: ${message} (${describe(value)})`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SnapshotValidationError([`${prefix}снимок должен быть объектом (${describe(raw)})`]);
  }
  const obj = raw as Record<string, unknown>;
  const date = typeof obj.date === 'string' ? obj.date.trim() : undefined;
  if (!date || !isIsoDate(date)) fail('date', 'должно быть датой в формате ГГГГ-ММ-ДД', obj.date);
  const developer = toText(obj.developer);
  if (!developer) fail('developer', 'обязательное поле: название застройщика', obj.developer);
  const project = toText(obj.project);
  if (!project) fail('project', 'обязательное поле: название проекта', obj.project);
  const flats: Snapshot['flats'] = [];
  if (!Array.isArray(obj.flats)) {
    fail('flats', 'должно быть массивом квартир', obj.flats);
  } else {
    const seen = new Map<string, number>();
    // buildings, sections and dates repeat across thousands of flats: keep one copy of each
    const pool = new Map<string, string>();
    const shared = (text: string | null | undefined): string | null => {
      if (text === null || text === undefined) return null;
      const hit = pool.get(text);
      if (hit !== undefined) return hit;
      pool.set(text, text);
      return text;
    };
    obj.flats.forEach((rawFlat, i) => {
      if (typeof rawFlat !== 'object' || rawFlat === null || Array.isArray(rawFlat)) {
        fail(flatField(i, ''), 'должно быть объектом', rawFlat);
        return;
      }
      const f = rawFlat as Record<string, unknown>;
      const before = errors.length;
      const id = toText(f.id);
      if (!id) fail(flatField(i, 'id'), 'обязательное поле: идентификатор квартиры', f.id);
      else if (seen.has(id))
        fail(flatField(i, 'id'), `повторяет идентификатор квартиры ${flatField(seen.get(id)!, '')}`, f.id);
      else seen.set(id, i);
      const building = toText(f.building);
      if (!building) fail(flatField(i, 'building'), 'обязательное поле: корпус', f.building);
      const rooms = toNumber(f.rooms);
      if (rooms === undefined || !Number.isInteger(rooms) || rooms < 0 || rooms > 50)
        fail(flatField(i, 'rooms'), 'должно быть целым числом ≥ 0 (0 — студия)', f.rooms);
      const area = toNumber(f.area);
      if (area === undefined || area <= 0 || area > MAX_AREA)
        fail(flatField(i, 'area'), 'должно быть положительным числом', f.area);
      const price = toNumber(f.price);
      if (price === undefined || !Number.isInteger(price) || price <= 0 || price > MAX_PRICE)
        fail(flatField(i, 'price'), 'должно быть целым положительным числом рублей', f.price);
      let basePrice: number | null = null;
      if (f.basePrice !== undefined && f.basePrice !== null && f.basePrice !== '') {
        const bp = toNumber(f.basePrice);
        if (bp === undefined || !Number.isInteger(bp) || bp <= 0 || bp > MAX_PRICE)
          fail(flatField(i, 'basePrice'), 'должно быть целым положительным числом рублей', f.basePrice);
        else basePrice = bp;
      }
      let floor: number | null = null;
      if (f.floor !== undefined && f.floor !== null && f.floor !== '') {
        const fl = toNumber(f.floor);
        if (fl === undefined || !Number.isInteger(fl) || Math.abs(fl) > 1000)
          fail(flatField(i, 'floor'), 'должно быть целым числом', f.floor);
        else floor = fl;
      }
      const settlementDate = normaliseSettlementDate(f.settlementDate);
      if (settlementDate === undefined)
        fail(
          flatField(i, 'settlementDate'),
          'не распознана дата сдачи (ГГГГ-ММ-ДД, «4 кв. 2026», «Q4 2026», «2026»)',
          f.settlementDate,
        );
      let status: FlatRecord['status'] = null;
      if (f.status !== undefined && f.status !== null && f.status !== '') {
        const s = typeof f.status === 'string' ? f.status.trim().toUpperCase() : '';
        if (s === 'AVAILABLE' || s === 'RESERVED') status = s;
        else fail(flatField(i, 'status'), 'должно быть AVAILABLE или RESERVED', f.status);
      }
      if (f.section !== undefined && f.section !== null && toText(f.section) === undefined)
        fail(flatField(i, 'section'), 'должно быть строкой', f.section);
      if (f.number !== undefined && f.number !== null && toText(f.number) === undefined)
        fail(flatField(i, 'number'), 'должно быть строкой', f.number);
      if (errors.length > before) return;
      flats.push({
        externalId: id!,
        rec: {
          building: shared(building)!,
          section: shared(toText(f.section) || null),
          floor,
          number: toText(f.number) || null,
          rooms: rooms!,
          // areas are kept to 0.01 m²: sums stay exact whatever the order
          area: Math.round(area! * 100) / 100,
          facing: normaliseFinish(f.finish),
          settlementDate: shared(settlementDate),
          price: price!,
          basePrice,
          status,
        },
      });
    });
  }
  if (errors.length > 0) throw new SnapshotValidationError(errors);
  return { date: date!, developer: developer!, project: project!, flats, source };
}

/** Hash of a snapshot's normalised content: equal price lists hash equally whatever the flats' order. */
export function contentHash(snapshot: Snapshot): string {
  const lines = snapshot.flats.map((f) => {
    const r = f.rec;
    return `${f.externalId}\u0001${r.building}\u0001${r.section ?? ''}\u0001${r.floor ?? ''}\u0001${r.number ?? ''}\u0001${r.rooms}\u0001${r.area}\u0001${r.facing}\u0001${r.settlementDate ?? ''}\u0001${r.price}\u0001${r.basePrice ?? ''}\u0001${r.status ?? ''}`;
  });
  // lists usually come in the same order every day: sort only when they are not sorted yet
  let sorted = true;
  for (let i = 1; i < lines.length && sorted; i++) if (lines[i - 1] > lines[i]) sorted = false;
  if (!sorted) lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
