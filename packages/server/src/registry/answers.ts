import { createHash } from 'node:crypto';
import {
  normaliseClass,
  type RegistryDate,
  RegistryValueError,
  registryCount,
  registryDate,
  registryFlag,
  registryNumber,
  registryShare,
  registryText,
} from './values.js';

/** The registry's three answers, in the order a day applies them (registry/state.ts). */
export const ANSWER_KINDS = ['list', 'detail', 'sales'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/**
 * The registry's three answers (DESIGN §12.3: the list, an object's detail, its `sales_agg`) read into the
 * facts they state about objects. Every field is optional: an answer that lacks one says nothing of it (the
 * object's state keeps what an earlier day said). An object whose answer holds a value no spelling reads is
 * refused whole for that answer, with a message naming the object and the field.
 */
export interface RegistryFacts {
  /** the ЖК, `objCommercNm` */
  name?: string;
  address?: string;
  lat?: number;
  lon?: number;
  floorMin?: number;
  floorMax?: number;
  /** flats, `objElemLivingCnt` or `objFlatCnt` */
  flats?: number;
  livingArea?: number;
  /** declared completion, `objReady100PercDt` */
  ready?: RegistryDate;
  published?: RegistryDate;
  escrow?: boolean;
  problem?: boolean;
  status?: number;
  rpdNum?: string;
  region?: number;
  priceAvg?: number;
  metro?: string;
  metroMinutes?: number;
  devId?: number;
  devName?: string;
  devFullName?: string;
  devInn?: string;
  devOgrn?: string;
  group?: string;
  groupId?: number;
  /** the building's own name, `nameObj` */
  building?: string;
  /** keys to buyers, `objTransferPlanDt` */
  transfer?: RegistryDate;
  /** sold share 0–1 as the detail states it, `soldOutPerc` */
  soldShare?: number;
  classRaw?: string;
  wall?: string;
  finish?: string;
  floors?: number;
  declaration?: string;
  /** `sales_agg`: flats in the declaration and those with registered contracts */
  salesTotal?: number;
  salesRealised?: number;
}

export type FactKey = keyof RegistryFacts;

type Read = (v: unknown, what: string) => unknown;
/** A fact: its key, where an answer puts it (the first spelling present wins), and its reader. */
type Field = [FactKey, string[], Read];

const text: Read = registryText;
const count: Read = registryCount;
const num: Read = registryNumber;

const DEVELOPER: Field[] = [
  ['devId', ['devId'], count],
  ['devName', ['shortName', 'devShortCleanNm', 'devShortNm'], text],
  ['devFullName', ['fullName', 'devFullCleanNm'], text],
  ['devInn', ['devInn'], text],
  ['devOgrn', ['devOgrn'], text],
  ['group', ['groupName', 'developerGroupName'], text],
  ['groupId', ['companyGroupId'], count],
];

const LIST: Field[] = [
  ['name', ['objCommercNm'], text],
  ['address', ['objAddr', 'shortAddr'], text],
  ['lat', ['latitude'], num],
  ['lon', ['longitude'], num],
  ['floorMin', ['objFloorMin'], count],
  ['floorMax', ['objFloorMax'], count],
  ['flats', ['objElemLivingCnt'], count],
  ['livingArea', ['objSquareLiving'], num],
  ['ready', ['objReady100PercDt'], registryDate],
  ['published', ['objPublDt'], registryDate],
  ['escrow', ['objGuarantyEscrowFlg'], registryFlag],
  ['problem', ['objProblemFlg', 'problemFlag'], registryFlag],
  ['status', ['objStatus'], count],
  ['rpdNum', ['rpdNum'], text],
  ['region', ['rpdRegionCd'], count],
  ['priceAvg', ['objPriceAVG', 'objPriceAvg'], num],
];

const DETAIL: Field[] = [
  ['building', ['nameObj'], text],
  ['transfer', ['objTransferPlanDt'], registryDate],
  ['soldShare', ['soldOutPerc'], registryShare],
  ['priceAvg', ['objPriceAvg', 'objPriceAVG'], num],
  ['classRaw', ['objLkClassDesc'], text],
  ['wall', ['wallMaterialShortDesc'], text],
  ['finish', ['objLkFinishTypeDesc'], text],
  ['flats', ['objFlatCnt'], count],
  ['livingArea', ['objFlatSq'], num],
  ['floors', ['objFloorCnt'], count],
  ['lat', ['objLkLatitude'], num],
  ['lon', ['objLkLongitude'], num],
  ['ready', ['objReady100PercDt'], registryDate],
  ['declaration', ['rpdPdfLink'], text],
  ['problem', ['objProblemFlg', 'problemFlag'], registryFlag],
  ['escrow', ['objGuarantyEscrowFlg'], registryFlag],
];

const SALES: Field[] = [
  ['salesTotal', ['total'], count],
  ['salesRealised', ['realised'], count],
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The facts `fields` read from `source` into `into`; throws the first value no spelling reads. */
function readFields(source: Record<string, unknown>, fields: Field[], into: RegistryFacts, where: string) {
  for (const [key, names, read] of fields) {
    const name = names.find((n) => source[n] !== undefined && source[n] !== null);
    if (name === undefined) continue;
    const value = read(source[name], `${where}: ${name}`);
    if (value !== undefined) (into as Record<string, unknown>)[key] = value;
  }
}

/** The id of an object as an answer writes it (a number or a numeric string). */
function objIdOf(v: unknown, where: string): number {
  const id = registryCount(v, `${where}: objId`);
  if (id === undefined || id === 0) throw new RegistryValueError(`${where}: нет objId`);
  return id;
}

/** One object's facts, or why its answer was refused. */
export type ObjectFacts =
  | { objId: number; facts: RegistryFacts /** the object's part of the answer as it came */; raw: unknown }
  | { objId?: number; error: string };

/** A list entry's facts (its developer's too). */
function listEntry(entry: unknown, i: number): ObjectFacts {
  const where = `список, объект ${i + 1}`;
  if (!isRecord(entry)) return { error: `${where}: не объект` };
  let objId: number | undefined;
  try {
    objId = objIdOf(entry.objId, where);
    const facts: RegistryFacts = {};
    readFields(entry, LIST, facts, `объект ${objId}`);
    if (isRecord(entry.metro)) {
      const name = registryText(entry.metro.name, `объект ${objId}: metro.name`);
      const minutes = registryNumber(entry.metro.time, `объект ${objId}: metro.time`);
      if (name !== undefined) facts.metro = name;
      if (minutes !== undefined) facts.metroMinutes = minutes;
    }
    if (isRecord(entry.developer))
      readFields(entry.developer, DEVELOPER, facts, `объект ${objId}: developer`);
    return { objId, facts, raw: entry };
  } catch (error) {
    if (error instanceof RegistryValueError) return { objId, error: error.message };
    throw error;
  }
}

/** What one answer says: the objects it states facts of, and those it could not be read for. */
export interface ReadAnswer {
  kind: AnswerKind;
  objects: ObjectFacts[];
  /** a list's `total` (how many objects the query has, all pages) */
  total?: number;
}

/**
 * One answer read: `{"data": {"list": [...], "total": n}}` a list page, `{"data": {"apartmentsAggData": …}}`
 * a sales answer (its object from `objId` beside it or the caller's, e.g. the file name), `{"data": {objId,
 * …}}` an object's detail. A bare `data` (no envelope) is taken too. An answer of no known shape is an
 * error naming it, never a throw.
 */
export function readAnswer(answer: unknown, objIdHint?: number): ReadAnswer | { error: string } {
  const data = isRecord(answer) && 'data' in answer ? answer.data : answer;
  if (!isRecord(data)) return { error: 'ответ реестра без data' };
  if (Array.isArray(data.list)) {
    let total: number | undefined;
    try {
      total = registryCount(data.total, 'список: total');
    } catch {
      total = undefined;
    }
    return { kind: 'list', objects: data.list.map(listEntry), total };
  }
  if (isRecord(data.apartmentsAggData)) {
    const where = 'продажи';
    try {
      const raw = data.objId ?? (isRecord(answer) ? answer.objId : undefined);
      const objId = raw !== undefined && raw !== null ? objIdOf(raw, where) : objIdHint;
      if (objId === undefined) return { error: `${where}: не указан objId (ни в ответе, ни в имени файла)` };
      const facts: RegistryFacts = {};
      readFields(data.apartmentsAggData, SALES, facts, `объект ${objId}: продажи`);
      if (
        facts.salesTotal !== undefined &&
        facts.salesRealised !== undefined &&
        facts.salesRealised > facts.salesTotal
      )
        throw new RegistryValueError(
          `объект ${objId}: продажи: realised ${facts.salesRealised} больше total ${facts.salesTotal}`,
        );
      return { kind: 'sales', objects: [{ objId, facts, raw: answer }] };
    } catch (error) {
      if (error instanceof RegistryValueError)
        return { kind: 'sales', objects: [{ objId: objIdHint, error: error.message }] };
      throw error;
    }
  }
  if (data.objId !== undefined) {
    let objId: number | undefined;
    try {
      objId = objIdOf(data.objId, 'объект');
      const facts: RegistryFacts = {};
      readFields(data, DETAIL, facts, `объект ${objId}`);
      if (isRecord(data.developer))
        readFields(data.developer, DEVELOPER, facts, `объект ${objId}: developer`);
      return { kind: 'detail', objects: [{ objId, facts, raw: answer }] };
    } catch (error) {
      if (error instanceof RegistryValueError)
        return { kind: 'detail', objects: [{ objId, error: error.message }] };
      throw error;
    }
  }
  return { error: 'ответ реестра неизвестного вида (нет list, apartmentsAggData или objId)' };
}

/** The class an object's facts give, normalised (DESIGN §12.3), if the registry names one we know. */
export const classOf = (facts: RegistryFacts) => normaliseClass(facts.classRaw);

const APARTMENTS = /апарт/iu;

/**
 * Whether an object is apartments (non-residential lots, DESIGN §12.3): its ЖК or building name, or its class
 * as the registry writes it, says so («Апарт-комплекс», «апартаменты»). Kept apart from flats in every figure.
 */
export const isApartments = (facts: RegistryFacts): boolean =>
  [facts.name, facts.building, facts.classRaw].some((t) => t !== undefined && APARTMENTS.test(t));

/** The facts of one object's stored raw answer of `kind` (a list entry, a detail or a sales answer). */
export function factsOf(kind: AnswerKind, raw: unknown, objId: number): RegistryFacts | { error: string } {
  const read = kind === 'list' ? listEntry(raw, 0) : readAnswer(raw, objId);
  const object = 'objects' in read ? read.objects[0] : kind === 'list' ? read : undefined;
  if (!object) return { error: 'error' in read ? read.error : 'ответ без объекта' };
  return 'facts' in object ? object.facts : { error: object.error };
}

/** The hash a kept raw answer is compared by (its JSON as it came, `JSON.stringify` of the parsed value). */
export const answerHash = (json: string) => createHash('sha1').update(json).digest('hex');
