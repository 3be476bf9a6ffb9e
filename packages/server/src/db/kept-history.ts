import type { ShiftFacts, StateAt } from '../analytics/registry.js';
import { fromDay, toDay } from '../lib/days.js';

/**
 * A registry object's light history (analytics/registry.ts `lightHistory`) as its kept bytes (DESIGN §11.1,
 * migration 38): the registry's figures over time read every object's history — at 12,000 objects × ~55
 * states, 128 MB as jsonb, whose text PostgreSQL made in ~1.7 s before a byte was parsed. Kept instead as each
 * state's day and the facts that changed from the state before (a week of sales changes one or two):
 *
 *   u32 states; then a state: i32 day, u8 written, u8 dropped, [i32 ready's day], [i32 transfer's day],
 *   [f64 for each of flats, soldShare, salesTotal, salesRealised written] — little-endian, days since 1970.
 *
 * `written`: bits 0–5 the facts written (ready, transfer, flats, soldShare, salesTotal, salesRealised), bits
 * 6 and 7 ready's and transfer's «by quarter» when written; `dropped`: bits 0–5 the facts no longer stated.
 * Numbers as doubles: the same value back. Decoded facts have `shiftFactsOf`'s key order, so `lightHistory`
 * compares them with the states it adds to the byte.
 */

const DATES = ['ready', 'transfer'] as const;
const NUMBERS = ['flats', 'soldShare', 'salesTotal', 'salesRealised'] as const;
const FACTS = [...DATES, ...NUMBERS] as const;

const same = (a: ShiftFacts, b: ShiftFacts, k: (typeof FACTS)[number]) => {
  const x = a[k];
  const y = b[k];
  if (typeof x === 'object' && typeof y === 'object') return x.day === y.day && x.quarter === y.quarter;
  return Object.is(x, y);
};

export function encodeHistory(history: readonly StateAt[]): Buffer {
  const parts: [written: number, dropped: number][] = [];
  let size = 4;
  let before: ShiftFacts = {};
  for (const { eff } of history) {
    let written = 0;
    let dropped = 0;
    FACTS.forEach((k, i) => {
      if (eff[k] === undefined) {
        if (before[k] !== undefined) dropped |= 1 << i;
      } else if (!same(eff, before, k)) {
        written |= 1 << i;
        size += i < DATES.length ? 4 : 8;
      }
    });
    if (written & 1 && eff.ready!.quarter) written |= 64;
    if (written & 2 && eff.transfer!.quarter) written |= 128;
    parts.push([written, dropped]);
    size += 6;
    before = eff;
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.writeUInt32LE(history.length, 0);
  history.forEach(({ day, eff }, s) => {
    const [written, dropped] = parts[s];
    at = out.writeInt32LE(toDay(day), at);
    at = out.writeUInt8(written, at);
    at = out.writeUInt8(dropped, at);
    DATES.forEach((k, i) => {
      if (written & (1 << i)) at = out.writeInt32LE(toDay(eff[k]!.day), at);
    });
    NUMBERS.forEach((k, i) => {
      if (written & (4 << i)) at = out.writeDoubleLE(eff[k]!, at);
    });
  });
  return out;
}

export function decodeHistory(body: Buffer): StateAt[] {
  if (body.length < 4) throw new Error('registry_object.history: malformed');
  const n = body.readUInt32LE(0);
  const out: StateAt[] = new Array(n);
  let at = 4;
  let before: ShiftFacts = {};
  const date = (bit: number, quarter: number, had: ShiftFacts['ready'], written: number, dropped: number) => {
    if (written & bit) {
      const value = { day: fromDay(body.readInt32LE(at)), quarter: (written & quarter) !== 0 };
      at += 4;
      return value;
    }
    return dropped & bit ? undefined : had;
  };
  const number = (bit: number, had: number | undefined, written: number, dropped: number) => {
    if (written & bit) {
      const value = body.readDoubleLE(at);
      at += 8;
      return value;
    }
    return dropped & bit ? undefined : had;
  };
  for (let s = 0; s < n; s++) {
    if (at + 6 > body.length) throw new Error('registry_object.history: malformed');
    const day = fromDay(body.readInt32LE(at));
    const written = body[at + 4];
    const dropped = body[at + 5];
    at += 6;
    // one shape for every state (a fact not stated is undefined: JSON leaves it out, as shiftFactsOf does),
    // its keys in shiftFactsOf's order; each fact written, else the state before's unless dropped
    const eff: ShiftFacts = {
      ready: date(1, 64, before.ready, written, dropped),
      transfer: date(2, 128, before.transfer, written, dropped),
      flats: number(4, before.flats, written, dropped),
      soldShare: number(8, before.soldShare, written, dropped),
      salesTotal: number(16, before.salesTotal, written, dropped),
      salesRealised: number(32, before.salesRealised, written, dropped),
    };
    out[s] = { day, eff };
    before = eff;
  }
  if (at !== body.length) throw new Error('registry_object.history: malformed');
  return out;
}
