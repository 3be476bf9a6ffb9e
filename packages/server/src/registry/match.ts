import type { RegistryFacts } from './answers.js';

/**
 * Which of our projects a registry object is (DESIGN §12.3), after a hand link or unlink (which wins and is
 * not decided here): the same developer (its INN where we know one, else its name or its group's name,
 * normalised) and the same ЖК name (normalised: quotes, «ЖК», case, ё) within 1.5 km when both sides have
 * coordinates. Several candidates: the nearest. None: the object is a project of its own, registry-only.
 * And which of the project's buildings it is, when its name or address names one corpus unambiguously.
 */

export interface OurProject {
  id: number;
  developer: string;
  name: string;
  lat: number | null;
  lon: number | null;
}

/** The distance within which a same-named project of the same developer is the object's, km. */
export const MATCH_KM = 1.5;

const QUOTES = /[«»"'“”„‘’`]/g;

/** A ЖК's name as matching compares it: lower case, ё as е, no quotes, no «ЖК»/«жилой комплекс». */
export function normaliseProjectName(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(QUOTES, ' ')
    .replace(/(^|\s)(жк|жилой комплекс|жилой квартал|мфк|апарт-комплекс)(?=\s|$)/g, ' ')
    .replace(/[.,()–—-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A developer's name as matching compares it: without its legal form and «СЗ», «ГК», quotes. */
export function normaliseDeveloperName(name: string): string {
  return normaliseProjectName(name)
    .replace(
      /(^|\s)(ооо|ао|пао|зао|оао|ип|сз|гк|специализированный застройщик|группа компаний|группа|холдинг|девелопмент)(?=\s|$)/g,
      ' ',
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Great-circle distance, km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Our projects by their normalised ЖК name, each with its normalised developer: made once per list. */
type ProjectIndex = Map<string, { p: OurProject; developer: string }[]>;
const indexes = new WeakMap<readonly OurProject[], ProjectIndex>();

function indexOf(projects: readonly OurProject[]): ProjectIndex {
  let index = indexes.get(projects);
  if (!index) {
    index = new Map();
    for (const p of projects) {
      const key = normaliseProjectName(p.name);
      const list = index.get(key) ?? [];
      list.push({ p, developer: normaliseDeveloperName(p.developer) });
      index.set(key, list);
    }
    indexes.set(projects, index);
  }
  return index;
}

/** The project the object is, by the automatic rule; null: none (the object is registry-only). */
export function matchProject(facts: RegistryFacts, projects: readonly OurProject[]): number | null {
  if (!facts.name) return null;
  const name = normaliseProjectName(facts.name);
  const developers = [facts.devName, facts.devFullName, facts.group]
    .filter((d): d is string => !!d)
    .map(normaliseDeveloperName)
    .filter((d) => d !== '');
  let best: { id: number; km: number } | null = null;
  // the projects of the same name only (the list is indexed once: 12,000 objects × 5,000 projects)
  for (const { p, developer } of indexOf(projects).get(name) ?? []) {
    if (!developers.includes(developer)) continue;
    const both = facts.lat !== undefined && facts.lon !== undefined && p.lat !== null && p.lon !== null;
    const km = both ? distanceKm(facts.lat!, facts.lon!, p.lat!, p.lon!) : Number.POSITIVE_INFINITY;
    if (both && km > MATCH_KM) continue;
    if (!best || km < best.km || (km === best.km && p.id < best.id)) best = { id: p.id, km };
  }
  return best?.id ?? null;
}

const CORPUS =
  /(?:^|[\s,.(])(?:корпус|корп\.?|кор\.|к\.?|строение|стр\.?|секция|дом|д\.)\s*№?\s*(\d+[а-яa-z]?)(?=$|[\s,.)])/giu;

/** The corpora a text names («корпус 3», «корп. 3», «к. 3», «стр. 3»), in order, lower case. */
export function corporaOf(text: string): string[] {
  return [...text.toLowerCase().matchAll(CORPUS)].map((m) => m[1]);
}

/** A building key's corpus: the corpus it names, else its only number («Корпус 3», «3», «к3»). */
function keyCorpus(key: string): string | null {
  const named = corporaOf(key);
  if (named.length === 1) return named[0];
  const numbers = key.toLowerCase().match(/\d+[а-яa-z]?/g);
  return numbers?.length === 1 ? numbers[0] : null;
}

/**
 * The building key of the project the object is: the object's name names one corpus (else its address
 * does, its last corpus — «д. 5, стр. 1» names the building by its last) and exactly one key is that corpus.
 */
export function matchBuilding(facts: RegistryFacts, keys: readonly string[]): string | null {
  const fromName = facts.building
    ? corporaOf(facts.building).filter((c, i, all) => all.indexOf(c) === i)
    : [];
  let corpus: string | undefined;
  if (fromName.length === 1) corpus = fromName[0];
  else if (fromName.length === 0 && facts.address) corpus = corporaOf(facts.address).at(-1);
  if (!corpus) return null;
  const found = keys.filter((k) => keyCorpus(k) === corpus);
  return found.length === 1 ? found[0] : null;
}
