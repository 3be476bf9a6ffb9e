import {
  COMPARE_MAX,
  formatChange,
  formatDecimal2,
  formatPercent,
  formatRoubles,
  type MarketRow,
  PRICE_CLASS_LABELS,
  PRICE_CLASSES,
  type PriceClass,
} from '@cena-metra/contract';
import { mdiScaleBalance, mdiStorefrontOutline } from '@mdi/js';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDevelopers } from '../../api/catalog';
import { useMarket, useMarketPace } from '../../api/market';
import { paceLines } from '../../components/chart/pace-lines';
import { TimeChart } from '../../components/chart/time-chart';
import { Switch } from '../../components/controls';
import { DataTable, parseSortValue, SortButton, SortSelect, sortValue } from '../../components/data-table';
import { DateInput } from '../../components/date-input';
import { ExportButtons } from '../../components/export-buttons';
import { DataState } from '../../components/states';
import { Button, Card, Section, SectionTitle, Select } from '../../components/ui';
import { dashboardUrl } from '../../lib/dashboard-url';
import { todayLocal } from '../../lib/dates';
import { useTitle } from '../../lib/use-title';
import { marketSheet } from './lib/market-sheet';
import {
  type MarketFilters,
  type MarketSortKey,
  readMarketFilters,
  sortMarketRows,
  writeMarketFilters,
} from './lib/market-table';

const dash = '—';
const num = (v: number | null, f: (v: number) => string = String) => (v === null ? dash : f(v));

/** The table's columns after the name: label, value, sort key. */
export const MARKET_COLUMNS: { key: MarketSortKey; label: string; cell: (r: MarketRow) => string }[] = [
  {
    key: 'priceClass',
    label: 'Класс',
    cell: (r) => (r.priceClass ? PRICE_CLASS_LABELS[r.priceClass] : dash),
  },
  { key: 'stock', label: 'В продаже', cell: (r) => String(r.stock) },
  { key: 'new30', label: 'Новые за 30 дн.', cell: (r) => String(r.new30) },
  { key: 'gone30', label: 'Выбыли за 30 дн.', cell: (r) => String(r.gone30) },
  { key: 'absorption', label: 'Вымываемость 30 дн.', cell: (r) => num(r.absorption, formatPercent) },
  { key: 'monthsOfSupply', label: 'Запас, мес.', cell: (r) => num(r.monthsOfSupply, formatDecimal2) },
  {
    key: 'medianDaysOnMarket',
    label: 'Срок продажи, дн.',
    cell: (r) => num(r.medianDaysOnMarket, (v) => formatDecimal2(v).replace(/,00$/, '')),
  },
  { key: 'avgMeterPrice', label: 'Ср. цена м², ₽', cell: (r) => num(r.avgMeterPrice, formatRoubles) },
  { key: 'indexChange', label: 'Индекс за период', cell: (r) => formatChange(r.indexChange) },
];

/** «Рынок»: developers and projects ranked by sales pace, stock, price and the index over a period. */
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
  const market = useMarket(
    rangeError
      ? null
      : {
          from: f.from,
          to: f.to,
          status,
          developerId: f.developerId ?? undefined,
          priceClass: f.priceClass ?? undefined,
        },
  );
  const pace = useMarketPace(
    rangeError ? null : { from: f.from, to: f.to, status, developerId: f.developerId ?? undefined },
  );
  const [picked, setPicked] = useState<number[]>([]);
  const rows = useMemo(() => {
    const list = f.view === 'projects' ? market.data?.projects : market.data?.developers;
    return sortMarketRows(list ?? [], f.sort.key, f.sort.dir);
  }, [market.data, f.view, f.sort.key, f.sort.dir]);
  const total = market.data?.total ?? null;
  const scope = f.developerId
    ? (developers.data?.find((d) => d.id === f.developerId)?.name ?? 'Застройщик')
    : 'Весь рынок';
  const chartSeries = useMemo(() => paceLines(pace.data?.points ?? []), [pace.data]);
  const header = (key: MarketSortKey, label: string) => (
    <SortButton
      label={label}
      sorted={f.sort.key === key ? f.sort.dir : null}
      onClick={() =>
        update({ sort: { key, dir: f.sort.key === key && f.sort.dir === 'desc' ? 'asc' : 'desc' } })
      }
    />
  );
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
      <div className="mb-6 grid grid-cols-1 items-end gap-4 md:grid-cols-3 xl:grid-cols-5">
        <DateInput
          label="Дата начала"
          value={f.from}
          max={f.to}
          testId="market-from"
          onChange={(date) => update({ from: date })}
        />
        <DateInput
          label="Дата окончания"
          value={f.to}
          min={f.from}
          testId="market-to"
          onChange={(date) => update({ to: date })}
        />
        <Select
          label="Застройщик"
          testId="market-developer"
          value={f.developerId ? String(f.developerId) : ''}
          options={[
            { value: '', label: 'Все' },
            ...(developers.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
          ]}
          onChange={(v) => update({ developerId: Number(v) || null })}
        />
        <Select
          label="Класс"
          testId="market-class"
          value={f.priceClass ?? ''}
          options={[
            { value: '', label: 'Все классы' },
            ...PRICE_CLASSES.map((c) => ({ value: c, label: PRICE_CLASS_LABELS[c] })),
          ]}
          onChange={(v) => update({ priceClass: (v || null) as PriceClass | null })}
        />
        <div className="flex h-12 items-center">
          <Switch
            checked={f.availableOnly}
            data-testid="market-available"
            onChange={(e) => update({ availableOnly: e.target.checked })}
          >
            Только свободные
          </Switch>
        </div>
      </div>
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
            note={`${total.projects} ${total.projects === 1 ? 'проект' : 'проектов'}, за период`}
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
      <Card>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <fieldset className="flex gap-1" aria-label="Таблица">
            {(
              [
                ['projects', 'Проекты'],
                ['developers', 'Застройщики'],
              ] as const
            ).map(([view, label]) => (
              <Button
                key={view}
                color={f.view === view ? 'info' : 'white'}
                aria-pressed={f.view === view}
                data-testid={`market-view-${view}`}
                onClick={() => update({ view })}
              >
                {label}
              </Button>
            ))}
          </fieldset>
          <ExportButtons
            fileName={fileBase}
            disabled={rows.length === 0}
            sheet={() => marketSheet(rows, f.view)}
            testId="market-export"
          />
        </div>
        <DataState
          loading={market.isLoading}
          error={market.error}
          empty={rows.length === 0}
          emptyText="За этот период данных нет. Измените даты или фильтры."
        >
          <SortSelect
            testId="market-sort"
            columns={[{ key: 'name', label: 'Название' }, ...MARKET_COLUMNS]}
            value={sortValue(f.sort.key, f.sort.dir)}
            onChange={(v) => update({ sort: parseSortValue<MarketSortKey>(v) })}
          />
          <div className="overflow-x-auto">
            <DataTable testId="market-table">
              <thead>
                <tr>
                  {f.view === 'projects' && <th data-label="Сравнить" />}
                  <th>{header('name', f.view === 'projects' ? 'Проект' : 'Застройщик')}</th>
                  {f.view === 'projects' ? (
                    <th>{header('developerName', 'Застройщик')}</th>
                  ) : (
                    <th>Проектов</th>
                  )}
                  {MARKET_COLUMNS.map((c) => (
                    <th key={c.key} className="text-right">
                      {header(c.key, c.label)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} data-testid="market-row">
                    {f.view === 'projects' && (
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Сравнить «${r.name}»`}
                          checked={picked.includes(r.id)}
                          disabled={!picked.includes(r.id) && picked.length >= COMPARE_MAX}
                          onChange={() => toggle(r.id)}
                        />
                      </td>
                    )}
                    <td>
                      {f.view === 'projects' ? (
                        <Link
                          className="text-blue-600 hover:underline dark:text-blue-400"
                          to={dashboardUrl(r.developerId, r.id)}
                        >
                          {r.name}
                        </Link>
                      ) : (
                        <button
                          type="button"
                          className="text-blue-600 hover:underline dark:text-blue-400"
                          onClick={() => update({ developerId: r.id, view: 'projects' })}
                        >
                          {r.name}
                        </button>
                      )}
                      {r.date !== f.to && (
                        <span
                          className="ml-2 text-gray-500 text-xs"
                          title="Последний день с данными в периоде"
                        >
                          на {formatDay(r.date)}
                        </span>
                      )}
                    </td>
                    <td>{f.view === 'projects' ? r.developerName : r.projects}</td>
                    {MARKET_COLUMNS.map((c) => (
                      <td key={c.key} className="text-right">
                        {c.cell(r)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </div>
        </DataState>
      </Card>
    </Section>
  );
}

function formatDay(iso: string): string {
  return new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');
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
