import { ANSWER_KINDS, type AnswerKind, type FactKey, type RegistryFacts } from './answers.js';

export type { AnswerKind } from './answers.js';

/**
 * An object's state in the registry (DESIGN §12.3) and how a day's answers move it. Each kind of answer (the
 * list's entry, the detail, the sales) keeps its own facts, a value never blanked because one day's answer
 * lacks it; the effective facts take each field from the answer that last *changed* it (a detail fetched
 * weekly that restates an old completion date does not undo the list's newer one). Answers of one day are
 * applied list, detail, sales: a field two of them change that day takes the later one's value.
 * Pure: the same answers in the same order make the same state, to the byte of its JSON (`stateJson`).
 */

export interface ObjectState {
  eff: RegistryFacts;
  list: RegistryFacts;
  detail: RegistryFacts;
  sales: RegistryFacts;
}

export const EMPTY_STATE: ObjectState = { eff: {}, list: {}, detail: {}, sales: {} };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The state after one answer of `kind` stating `facts`. */
export function applyAnswer(state: ObjectState, kind: AnswerKind, facts: RegistryFacts): ObjectState {
  const own: RegistryFacts = { ...state[kind] };
  const eff: RegistryFacts = { ...state.eff };
  for (const key of Object.keys(facts) as FactKey[]) {
    const value = facts[key];
    if (value === undefined || same(own[key], value)) continue;
    (own as Record<string, unknown>)[key] = value;
    (eff as Record<string, unknown>)[key] = value;
  }
  return { ...state, [kind]: own, eff };
}

/** A day's answers about one object, by kind (each at most once: the day's latest). */
export type DayAnswers = Partial<Record<AnswerKind, RegistryFacts>>;

export function applyDay(state: ObjectState, day: DayAnswers): ObjectState {
  let next = state;
  for (const kind of ANSWER_KINDS) {
    const facts = day[kind];
    if (facts) next = applyAnswer(next, kind, facts);
  }
  return next;
}

/** Facts with their keys in order: what is stored, so that equal states are equal bytes. */
function sorted(facts: RegistryFacts): RegistryFacts {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(facts).sort()) out[key] = (facts as Record<string, unknown>)[key];
  return out as RegistryFacts;
}

/** The stored form of a state (its JSON, keys in order). */
export function stateJson(state: ObjectState): string {
  return JSON.stringify({
    eff: sorted(state.eff),
    list: sorted(state.list),
    detail: sorted(state.detail),
    sales: sorted(state.sales),
  });
}

/** A stored state read back (a jsonb value as the driver gives it: parsed, or its text). */
export function stateOf(stored: unknown): ObjectState {
  const value = (typeof stored === 'string' ? JSON.parse(stored) : stored) as Partial<ObjectState>;
  return {
    eff: value.eff ?? {},
    list: value.list ?? {},
    detail: value.detail ?? {},
    sales: value.sales ?? {},
  };
}

/** Stored states by day as their effective facts by day (a history before it is made light). */
export const effectsByDay = (states: readonly { day: string; state: unknown }[]) =>
  states.map((s) => ({ day: s.day, eff: stateOf(s.state).eff }));
