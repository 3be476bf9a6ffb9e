import {
  COMPARE_MAX,
  formatChange,
  formatPercent,
  formatRoubles,
  PRICE_CLASS_LABELS,
} from '@cena-metra/contract';
import { mdiScaleBalance, mdiStorefrontOutline } from '@mdi/js';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useDevelopers } from '../../api/catalog';
import { paceLines } from '../../components/chart/pace-lines';
import { TimeChart } from '../../components/chart/time-chart';
import { Button, Section, SectionTitle } from '../../components/ui';
import { todayLocal } from '../../lib/dates';
import { useTitle } from '../../lib/use-title';
import { useMarket, useMarketMap, useMarketPace, useProjectPlaces, useRegistryMarket } from './api';
import {
  type MarketFilters,
  readMarketFilters,
  sortMarketRows,
  writeMarketFilters,
} from './lib/market-table';
import { withRegistry } from './lib/registry-rows';
import { rowsInView } from './map/map-data';
import { MarketFilterBar } from './market-filters';
import { MarketHedonic } from './market-hedonic';
import { MarketMap } from './market-map';
import { formatDay, MarketTableCard } from './market-table-card';

const num = (v: number | null, f: (v: number) => string = String) => (v === null ? '—' : f(v));

/** «Рынок»: developers, projects and places ranked by sales pace, stock, price and the index over a period. */
export function MarketPage() {
  useTitle('Рынок');
  const today = todayLocal();
  const [params, setParams] = useSearchParams();
  const f = readMarketFilters(params, today);
  const update = (next: Partial<MarketFilters>) => setParams(writeMarketFilters({ ...f, ...next }, today));
  const navigate = useNavigate();
  const developers = useDevelopers();
  const status = f.availableOnly ? ('AVAILABLE' as const) : ('ALL' as const);
  const rangeError = f.from > f.to ? 'Дата начала позже даты окончания.' : null;
  const placeFilters = {
    region: f.region ?? undefined,
    city: f.city ?? undefined,
    district: f.district ?? undefined,
    station: f.station ?? undefined,
  };
  // the selection the table and the pace chart share
  const selection = {
    from: f.from,
    to: f.to,
    status,
    developerId: f.developerId ?? undefined,
    priceClass: f.priceClass ?? undefined,
    ...placeFilters,
  };
  const market = useMarket(
    rangeError
      ? null
      : // the table by place is made only when it is shown, the projects' rows sent only when they are (the map
        // has its own answer: POST /api/market/map)
        {
          ...selection,
          ...(f.view === 'places' && { groupBy: f.groupBy }),
          ...(f.view !== 'projects' && { projects: false }),
        },
  );
  const pace = useMarketPace(rangeError ? null : selection);
  // the map in columns: the selection's placed projects with the registry's (issue 46)
  const map = useMarketMap(rangeError ? null : { ...selection, listsOnly: f.listsOnly });
  // the table of projects: every registry project of the selection beside ours (a station is not the
  // registry's: with one, ours alone), and the projects' places — asked only when that table is shown
  const projectsShown = f.view === 'projects';
  const registry = useRegistryMarket(
    rangeError || !projectsShown
      ? null
      : {
          developerId: f.developerId ?? undefined,
          region: placeFilters.region,
          city: placeFilters.city,
          district: placeFilters.district,
        },
  );
  const [picked, setPicked] = useState<number[]>([]);
  const [visible, setVisible] = useState<Set<number> | null>(null);
  const places = useProjectPlaces(projectsShown);
  // the projects' rows with their places, joined by id (the ranking is sent without them), the registry's
  // figures joined the same way, and the registry-only projects after them
  const placedProjects = useMemo(
    () =>
      market.data &&
      withRegistry(
        market.data.projects.map((r) => ({ ...r, place: places.data?.get(r.id) })),
        registry.data?.projects,
        { listsOnly: f.listsOnly || !!f.station, to: f.to, priceClass: f.priceClass },
      ),
    [market.data, places.data, registry.data, f.listsOnly, f.station, f.to, f.priceClass],
  );
  const registryOnly = map.data?.registryOnly ?? 0;
  const rows = useMemo(() => {
    const list =
      f.view === 'projects'
        ? placedProjects
        : f.view === 'developers'
          ? market.data?.developers
          : market.data?.places?.rows;
    // «только видимые на карте»: the projects in the map's view
    return sortMarketRows(
      f.view === 'projects' ? rowsInView(list ?? [], visible) : (list ?? []),
      f.sort.key,
      f.sort.dir,
    );
  }, [market.data, placedProjects, f.view, f.sort.key, f.sort.dir, visible]);
  const total = market.data?.total ?? null;
  const place = [f.region, f.city, f.district, f.station && `м. ${f.station}`].filter(Boolean).join(', ');
  const scope =
    (f.developerId
      ? (developers.data?.find((d) => d.id === f.developerId)?.name ?? 'Застройщик')
      : 'Весь рынок') +
    (place ? ` · ${place}` : '') +
    (f.priceClass ? ` · ${PRICE_CLASS_LABELS[f.priceClass]}` : '');
  const chartSeries = useMemo(() => paceLines(pace.data?.points ?? []), [pace.data]);
  const toggle = (id: number) =>
    setPicked((list) =>
      list.includes(id) ? list.filter((x) => x !== id) : list.length >= COMPARE_MAX ? list : [...list, id],
    );
  const fileBase = `Рынок ${f.from} — ${f.to}${f.view === 'developers' ? ' застройщики' : ''}`;
  return (
    <Section>
      <SectionTitle
        icon={mdiStorefrontOutline}
        right={
          <Button
            color="info"
            icon={mdiScaleBalance}
            disabled={picked.length === 0}
            data-testid="compare-picked"
            onClick={() => navigate(`/compare?projects=${picked.join(',')}`)}
          >
            Сравнить{picked.length ? ` (${picked.length})` : ''}
          </Button>
        }
      >
        Рынок
      </SectionTitle>
      <MarketFilterBar f={f} update={update} />
      {rangeError && (
        <p className="mb-6 rounded-lg bg-amber-500 px-4 py-3 text-white" role="alert">
          {rangeError}
        </p>
      )}
      {total && (
        <div className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="market-total">
          <Figure label="В продаже" value={String(total.stock)} note={`на ${formatDay(total.date)}`} />
          <Figure
            label="Вымываемость 30 дн."
            value={num(total.absorption, formatPercent)}
            note={`выбыло ${total.gone30}, новых ${total.new30}`}
          />
          <Figure label="Ср. цена м²" value={num(total.avgMeterPrice, (v) => `${formatRoubles(v)} ₽`)} />
          <Figure
            label="Индекс тех же квартир"
            value={formatChange(total.indexChange)}
            note={`${total.projects} ${total.projects === 1 ? 'проект' : 'проектов'}, за период${
              registryOnly ? `; ещё ${registryOnly} только в реестре` : ''
            }`}
          />
        </div>
      )}
      {!rangeError && (
        // the map first (analysts read the market on a map first; the charts below it are drawn as they come
        // into view), made before the page's data come: MapLibre's style and basemap while the answers are awaited
        <div className="mb-6">
          <MarketMap
            map={map.data}
            loading={!map.data}
            fileName={`${fileBase} карта`}
            onVisible={setVisible}
          />
        </div>
      )}
      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TimeChart
          id="market-stock"
          title={`${scope}: квартиры в продаже`}
          series={chartSeries.stock}
          height={320}
          fileName={`${fileBase} квартиры`}
          look={{ smooth: false, alwaysSteps: true, yName: 'Квартир', counts: true }}
        />
        <TimeChart
          id="market-absorption"
          title={`${scope}: вымываемость за 30 дней`}
          series={chartSeries.absorption}
          height={320}
          fileName={`${fileBase} вымываемость`}
          look={{ smooth: false, yName: '%', decimals: true }}
        />
      </div>
      <MarketHedonic
        request={
          rangeError
            ? null
            : {
                from: f.from,
                to: f.to,
                region: placeFilters.region,
                city: placeFilters.city,
                district: placeFilters.district,
                priceClass: f.priceClass ?? undefined,
              }
        }
        fileBase={fileBase}
        note={
          f.developerId || f.station
            ? 'Индекс считается по месту и классу: застройщик и станция метро в нём не выбираются'
            : undefined
        }
      />
      <MarketTableCard
        f={f}
        update={update}
        rows={rows}
        loading={market.isLoading}
        error={market.error}
        picked={picked}
        toggle={toggle}
        fileBase={fileBase}
      />
    </Section>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-2xl bg-white p-4 dark:bg-slate-900/70">
      <div className="text-gray-500 text-sm dark:text-slate-400">{label}</div>
      <div className="font-semibold text-2xl">{value}</div>
      {note && <div className="text-gray-500 text-xs dark:text-slate-400">{note}</div>}
    </div>
  );
}
