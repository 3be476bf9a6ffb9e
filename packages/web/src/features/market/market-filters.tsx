import { PRICE_CLASS_LABELS, PRICE_CLASSES, type PriceClass } from '@cena-metra/contract';
import { useDevelopers, usePlaces } from '../../api/catalog';
import { Switch } from '../../components/controls';
import { DateRange } from '../../components/date-input';
import { Select } from '../../components/ui';
import type { MarketFilters } from './lib/market-table';

/** A select of place names: «Все» first, then the names; a name kept in the URL but unknown still shows. */
const placeOptions = (names: string[] | undefined, value: string | null) => [
  { value: '', label: 'Все' },
  ...[...(names ?? []), ...(value && !names?.includes(value) ? [value] : [])].map((n) => ({
    value: n,
    label: n,
  })),
];

/** «Рынок»'s filters: the period, developer, class, place (DESIGN §11.3) and status, all in the URL. */
export function MarketFilterBar({
  f,
  update,
}: {
  f: MarketFilters;
  update: (next: Partial<MarketFilters>) => void;
}) {
  const developers = useDevelopers();
  const places = usePlaces();
  return (
    <div className="mb-6 grid grid-cols-1 items-end gap-4 md:grid-cols-3 xl:grid-cols-5">
      <DateRange from={f.from} to={f.to} ids={{ from: 'market-from', to: 'market-to' }} onChange={update} />
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
      <div className="flex h-12 items-center">
        <Switch
          checked={f.listsOnly}
          data-testid="market-lists-only"
          onChange={(e) => update({ listsOnly: e.target.checked })}
        >
          Только с прайс-листами
        </Switch>
      </div>
      <Select
        label="Регион"
        testId="market-region"
        value={f.region ?? ''}
        options={placeOptions(places.data?.regions, f.region)}
        onChange={(v) => update({ region: v || null })}
      />
      <Select
        label="Город"
        testId="market-city"
        value={f.city ?? ''}
        options={placeOptions(places.data?.cities, f.city)}
        onChange={(v) => update({ city: v || null })}
      />
      <Select
        label="Район"
        testId="market-district"
        value={f.district ?? ''}
        options={placeOptions(places.data?.districts, f.district)}
        onChange={(v) => update({ district: v || null })}
      />
      <Select
        label="Метро"
        testId="market-station"
        value={f.station ?? ''}
        options={placeOptions(places.data?.stations, f.station)}
        onChange={(v) => update({ station: v || null })}
      />
    </div>
  );
}
