import type {
  RegistryMarketProject,
  RegistryMarketRequest,
  RegistryMarketResponse,
} from '@cena-metra/contract';
import { soldOf, soldShareOf } from '../analytics/registry.js';
import type { Db } from '../db/driver.js';
import { registryDays } from '../db/queries/registry.js';
import { classOf, isApartments, type RegistryFacts } from '../registry/answers.js';
import { normaliseDeveloperName, normaliseProjectName } from '../registry/match.js';
import type { MarketReader } from './market-reader.js';
import { inPlace } from './market-scopes.js';

/**
 * Every registry project of the market (DESIGN §12.3): the objects matched to one of our projects as that
 * project, the registry-only ones grouped into projects of their own by developer and ЖК name (both
 * normalised as matching does; an object without a ЖК name is a project alone). A place selects our
 * projects by their place and the registry-only ones by their address naming it; a developer selects its
 * projects and the registry-only ones of a developer of the same name.
 */

const folded = (s: string) => s.toLowerCase().replace(/ё/g, 'е');

interface Group {
  projectId: number | null;
  objects: { objId: number; eff: RegistryFacts }[];
}

/** The developer a registry object names, normalised: its INN's name where given, else its names. */
const developerKeys = (eff: RegistryFacts) =>
  [eff.devName, eff.devFullName, eff.group]
    .filter((d): d is string => !!d)
    .map(normaliseDeveloperName)
    .filter(Boolean);

/** The figures of one project's objects. */
function projectOf(g: Group, name: string): RegistryMarketProject {
  // its figures are its flats': objects of apartments are counted apart
  const effs = g.objects.map((o) => o.eff).filter((e) => !isApartments(e));
  const first = g.objects[0].eff;
  let flats = 0;
  let anyFlats = false;
  let realised = 0;
  let anySold = false;
  const classFlats = new Map<string, number>();
  let lat = 0;
  let lon = 0;
  let placed = 0;
  let ready: string | null = null;
  for (const eff of effs) {
    if (eff.flats !== undefined) {
      flats += eff.flats;
      anyFlats = true;
    }
    const sold = soldOf(eff);
    if (sold) {
      realised += sold.realised;
      anySold = true;
    }
    const cls = classOf(eff);
    if (cls) classFlats.set(cls, (classFlats.get(cls) ?? 0) + (eff.flats ?? 1));
    if (eff.ready && (ready === null || eff.ready.day > ready)) ready = eff.ready.day;
  }
  // its place: every object's, apartments' too
  for (const { eff } of g.objects)
    if (eff.lat !== undefined && eff.lon !== undefined) {
      lat += eff.lat;
      lon += eff.lon;
      placed++;
    }
  const cls = [...classFlats].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null;
  return {
    projectId: g.projectId,
    objId: g.objects[0].objId,
    name,
    developerName: first.devName ?? first.group ?? first.devFullName ?? '',
    objects: effs.length,
    apartments: g.objects.length - effs.length,
    flats: anyFlats ? flats : null,
    realised: anySold ? realised : null,
    soldShare: soldShareOf(effs),
    housingClass: cls as RegistryMarketProject['housingClass'],
    ready,
    problem: g.objects.some((o) => o.eff.problem === true),
    address: g.objects.find((o) => o.eff.address)?.eff.address ?? null,
    latitude: placed ? Math.round((lat / placed) * 1e6) / 1e6 : null,
    longitude: placed ? Math.round((lon / placed) * 1e6) / 1e6 : null,
  };
}

export function registryMarket(
  db: Db,
  market: MarketReader,
  q: Omit<RegistryMarketRequest, 'housingClass'> & { housingClass?: string },
): Promise<RegistryMarketResponse> {
  const key = `market:${[q.developerId, q.region, q.city, q.district, q.housingClass].map((v) => v ?? '').join(':')}`;
  return market.registry.answer(
    db,
    key,
    (r) => 200 + r.projects.length * 400,
    () => computeRegistryMarket(db, market, q),
  );
}

async function computeRegistryMarket(
  db: Db,
  market: MarketReader,
  q: Omit<RegistryMarketRequest, 'housingClass'> & { housingClass?: string },
): Promise<RegistryMarketResponse> {
  const projects = new Map((await market.projects(db)).map((p) => [p.id, p]));
  const names = [q.region, q.city, q.district].filter((v): v is string => !!v).map(folded);
  let developer: string | null = null;
  if (q.developerId !== undefined) {
    const ours = [...projects.values()].find((p) => p.developer_id === q.developerId);
    developer = ours ? normaliseDeveloperName(ours.developer_name) : null;
  }
  const groups = new Map<string, Group>();
  let objects = 0;
  for (const o of await market.registry.objects(db)) {
    const eff = o.facts;
    if (q.housingClass && classOf(eff) !== q.housingClass) continue;
    let key: string;
    if (o.projectId !== null) {
      const p = projects.get(o.projectId);
      // a project without lists in the market (none yet): its objects wait for them
      if (!p || !inPlace(p.place, q)) continue;
      if (q.developerId !== undefined && p.developer_id !== q.developerId) continue;
      key = `p${o.projectId}`;
    } else {
      const address = folded(eff.address ?? '');
      if (!names.every((n) => address.includes(n))) continue;
      const devs = developerKeys(eff);
      if (q.developerId !== undefined && (developer === null || !devs.includes(developer))) continue;
      key = eff.name ? `r${devs[0] ?? ''}\u0000${normaliseProjectName(eff.name)}` : `o${o.objId}`;
    }
    objects++;
    const g = groups.get(key) ?? { projectId: o.projectId, objects: [] };
    g.objects.push({ objId: o.objId, eff });
    groups.set(key, g);
  }
  const out: RegistryMarketProject[] = [];
  for (const g of groups.values()) {
    g.objects.sort((a, b) => a.objId - b.objId);
    const first = g.objects[0].eff;
    const name =
      g.projectId !== null
        ? projects.get(g.projectId)!.name
        : (first.name ?? first.building ?? first.address ?? `Объект ${g.objects[0].objId}`);
    const project = projectOf(g, name);
    if (g.projectId !== null) project.developerName = projects.get(g.projectId)!.developer_name;
    out.push(project);
  }
  // ours first (by id), then the registry-only ones by their first object
  out.sort(
    (a, b) =>
      (a.projectId ?? Number.MAX_SAFE_INTEGER) - (b.projectId ?? Number.MAX_SAFE_INTEGER) ||
      a.objId - b.objId,
  );
  const days = await registryDays(db);
  return { projects: out, objects, asOf: days.at(-1) ?? null };
}
