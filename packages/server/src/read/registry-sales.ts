import type {
  RegistryPipelineResponse,
  RegistrySalesRequest,
  RegistrySalesResponse,
} from '@cena-metra/contract';
import { periodOf } from '../analytics/pace-union.js';
import { salesByMonth } from '../analytics/registry.js';
import { pipeline } from '../analytics/registry-pipeline.js';
import type { Db } from '../db/driver.js';
import { registryDays } from '../db/queries/registry.js';
import { toDay } from '../lib/days.js';
import { BadRequestError, NotFoundError } from '../lib/errors.js';
import { classOf, isApartments } from '../registry/answers.js';
import type { MarketReader } from './market-reader.js';
import { inPlace, scopeOf } from './market-scopes.js';

/**
 * Registered sales by month of a project, a developer, a place or the whole market (DESIGN §12.3), with
 * the sold share and, beside them, the same projects' lots gone from our lists (§10.5 gone₃₀ at the month's
 * last registry day): what the registry says was sold against what the lists suggest. A place or a developer
 * counts the objects matched to its projects; the whole market counts the registry-only objects too.
 */
export async function registrySales(
  db: Db,
  market: MarketReader,
  q: Omit<RegistrySalesRequest, 'from' | 'to'> & { from: string; to: string },
): Promise<RegistrySalesResponse> {
  if (q.from > q.to) throw new BadRequestError('from: позже to');
  // held per version of the registry and of the lists' data (the gone₃₀ beside is theirs)
  const key = `sales:${[q.projectId, q.developerId, q.region, q.city, q.district, q.housingClass, q.from, q.to].map((v) => v ?? '').join(':')}`;
  return market.registry.answer(
    db,
    key,
    (r) => 200 + r.months.length * 100,
    () => computeSales(db, market, q),
  );
}

async function computeSales(
  db: Db,
  market: MarketReader,
  q: Omit<RegistrySalesRequest, 'from' | 'to'> & { from: string; to: string },
): Promise<RegistrySalesResponse> {
  const projects = (await market.projects(db)).filter(
    (p) =>
      (q.projectId === undefined || p.id === q.projectId) &&
      (q.developerId === undefined || p.developer_id === q.developerId) &&
      inPlace(p.place, q),
  );
  if (q.projectId !== undefined && projects.length === 0)
    throw new NotFoundError(`проект ${q.projectId} не найден среди проектов с данными`);
  const scoped = q.projectId !== undefined || q.developerId !== undefined || q.region || q.city || q.district;
  const ids = new Set(projects.map((p) => p.id));
  // flats only: objects of apartments are kept apart from every figure (DESIGN §12.3)
  const objects = (await market.registry.objects(db)).filter((o) => {
    const eff = o.facts;
    return (
      (o.projectId === null ? !scoped : ids.has(o.projectId)) &&
      !isApartments(eff) &&
      (!q.housingClass || classOf(eff) === q.housingClass)
    );
  });
  const days = await registryDays(db);
  const held = await market.registry.histories(db);
  // each object's history decoded as the sales come to it, not the country's all at once (db/kept-history.ts)
  const months = salesByMonth(
    (function* () {
      for (const o of objects) yield held.get(o.objId) ?? [];
    })(),
    days,
  );
  // our lists of the matched projects: their union's gone₃₀ on each month's last registry day
  const withObjects = new Set(objects.map((o) => o.projectId));
  const matched = projects.filter((p) => withObjects.has(p.id));
  const ends = new Map(days.map((d) => [d.slice(0, 7), d]));
  const shown = months.filter((m) => m.month >= q.from.slice(0, 7) && m.month <= q.to.slice(0, 7));
  const gone = new Map<string, number>();
  if (matched.length && shown.length) {
    // the matched projects' union: the kept span of their scope when they are its members (the whole market
    // when every project has its objects), else made once per version of their data and held
    const scope =
      q.projectId === undefined
        ? scopeOf({
            developerId: q.developerId === undefined ? undefined : Number(q.developerId),
            region: q.region,
            city: q.city,
            district: q.district,
          })
        : null;
    const name = `registry:${[q.projectId, q.developerId, q.region, q.city, q.district, q.housingClass].map((v) => v ?? '').join(':')}`;
    const span = await market.unionSpan(db, { scope, name }, matched, 'ALL', 'all');
    const first = toDay(ends.get(shown[0].month)!) - 30;
    const last = toDay(ends.get(shown[shown.length - 1].month)!);
    const points = periodOf(span, first, last);
    const byDate = new Map(points.map((p) => [p.date, p.gone30]));
    for (const m of shown) {
      const g = byDate.get(ends.get(m.month)!);
      if (g !== undefined) gone.set(m.month, g);
    }
  }
  return {
    months: shown.map((m) => ({ ...m, gone30: gone.get(m.month) ?? null })),
    objects: objects.length,
    withLists: objects.filter((o) => o.projectId !== null).length,
  };
}

const folded = (s: string) => s.toLowerCase().replace(/ё/g, 'е');

/**
 * The objects of a place and a class: matched ones by their project's place, the registry-only ones by
 * their address naming the place (the registry gives no district or city field of its own).
 */
async function objectsOfPlace(
  db: Db,
  market: MarketReader,
  q: { region?: string; city?: string; district?: string; housingClass?: string },
) {
  const places = new Map((await market.projects(db)).map((p) => [p.id, p.place]));
  const names = [q.region, q.city, q.district].filter((v): v is string => !!v).map(folded);
  return (await market.registry.objects(db)).filter((o) => {
    const eff = o.facts;
    if (isApartments(eff)) return false;
    if (q.housingClass && classOf(eff) !== q.housingClass) return false;
    const place = o.projectId === null ? undefined : places.get(o.projectId);
    if (place) return inPlace(place, q);
    const address = folded(eff.address ?? '');
    return names.every((n) => address.includes(n));
  });
}

export async function registryPipeline(
  db: Db,
  market: MarketReader,
  q: { region?: string; city?: string; district?: string; housingClass?: string; from: string; to: string },
): Promise<RegistryPipelineResponse> {
  const objects = await objectsOfPlace(db, market, q);
  const rows = objects.map((o) => {
    const eff = o.facts;
    return {
      publishedDay: eff.published?.day,
      firstDay: o.firstDay,
      readyDay: eff.ready?.day,
      flats: eff.flats,
      soldShare: eff.soldShare,
      salesTotal: eff.salesTotal,
      salesRealised: eff.salesRealised,
    };
  });
  return { quarters: pipeline(rows, q.from, q.to), objects: objects.length };
}
