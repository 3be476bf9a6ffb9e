import { HOUSING_CLASS_NAMES } from '@cena-metra/contract';
import { mdiCrane } from '@mdi/js';
import { useSearchParams } from 'react-router';
import { usePlaces } from '../../api/catalog';
import { ColumnTable } from '../../components/column-table';
import { DateRange } from '../../components/date-input';
import { ExportButtons } from '../../components/export-buttons';
import { DataState } from '../../components/states';
import { Card, Section, SectionTitle, Select } from '../../components/ui';
import { sheetOf } from '../../lib/columns';
import { todayLocal } from '../../lib/dates';
import { useTitle } from '../../lib/use-title';
import { usePipeline } from './api';
import { defaultPeriod, PIPELINE_COLUMNS } from './lib/pipeline';

const options = (names: string[] | undefined, all = 'Все') => [
  { value: '', label: all },
  ...(names ?? []).map((n) => ({ value: n, label: n })),
];

/** «Старты и ввод»: the registry's pipeline by quarter, of a place and a class (DESIGN §12.3). */
export function PipelinePage() {
  useTitle('Старты и ввод');
  const [params, setParams] = useSearchParams();
  const period = defaultPeriod(todayLocal());
  const f = {
    from: params.get('from') ?? period.from,
    to: params.get('to') ?? period.to,
    region: params.get('region') ?? '',
    city: params.get('city') ?? '',
    housingClass: params.get('class') ?? '',
  };
  const update = (next: Partial<typeof f>) => {
    const merged = { ...f, ...next };
    const out = new URLSearchParams();
    if (merged.from !== period.from) out.set('from', merged.from);
    if (merged.to !== period.to) out.set('to', merged.to);
    if (merged.region) out.set('region', merged.region);
    if (merged.city) out.set('city', merged.city);
    if (merged.housingClass) out.set('class', merged.housingClass);
    setParams(out);
  };
  const places = usePlaces();
  const wrong = f.from > f.to;
  const q = usePipeline(
    wrong
      ? null
      : {
          from: f.from,
          to: f.to,
          region: f.region || undefined,
          city: f.city || undefined,
          housingClass: (f.housingClass || undefined) as (typeof HOUSING_CLASS_NAMES)[number] | undefined,
        },
  );
  const quarters = q.data?.quarters ?? [];
  return (
    <Section>
      <SectionTitle icon={mdiCrane}>Старты и ввод</SectionTitle>
      <div className="mb-6 grid grid-cols-1 items-end gap-4 md:grid-cols-3 xl:grid-cols-5">
        <DateRange
          from={f.from}
          to={f.to}
          ids={{ from: 'pipeline-from', to: 'pipeline-to' }}
          onChange={update}
        />
        <Select
          label="Регион"
          testId="pipeline-region"
          value={f.region}
          options={options(places.data?.regions)}
          onChange={(v) => update({ region: v })}
        />
        <Select
          label="Город"
          testId="pipeline-city"
          value={f.city}
          options={options(places.data?.cities)}
          onChange={(v) => update({ city: v })}
        />
        <Select
          label="Класс"
          testId="pipeline-class"
          value={f.housingClass}
          options={options([...HOUSING_CLASS_NAMES], 'Все классы')}
          onChange={(v) => update({ housingClass: v })}
        />
      </div>
      <Card
        title={
          <span className="flex flex-wrap items-center justify-between gap-3">
            <span>
              По кварталам{' '}
              <span
                className="font-normal text-gray-500 text-sm dark:text-slate-400"
                data-testid="pipeline-count"
              >
                реестр наш.дом.рф{q.data ? `, объектов: ${q.data.objects.toLocaleString('ru-RU')}` : ''}
              </span>
            </span>
            <ExportButtons
              fileName="Старты и ввод"
              disabled={quarters.length === 0}
              sheet={() => sheetOf('Старты и ввод', PIPELINE_COLUMNS, quarters)}
              testId="pipeline-export"
            />
          </span>
        }
      >
        {wrong && (
          <p role="alert" className="mb-3 text-red-600">
            Дата начала позже даты окончания.
          </p>
        )}
        <DataState
          loading={!wrong && !q.data && !q.error}
          error={q.error}
          empty={q.data?.objects === 0}
          emptyText="Нет объектов реестра по этим условиям — загрузите реестр (cena-metra import --format domrf)."
        >
          <p className="mb-3 text-gray-600 text-sm dark:text-slate-300">
            Старты — объекты, опубликованные в квартале (иначе впервые увиденные); ввод — по сроку,
            заявленному сейчас; «не продано» — квартиры без зарегистрированных договоров.
          </p>
          <ColumnTable
            columns={PIPELINE_COLUMNS}
            rows={quarters}
            rowKey={(r) => r.quarter}
            testId="pipeline-table"
          />
        </DataState>
      </Card>
    </Section>
  );
}
