import { mdiHomeCity, mdiMagnify, mdiSale, mdiSend, mdiTable, mdiViewList } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Button, Card, inputClass, Section, SectionTitle } from '../../components/ui';
import { DiscountsByProject } from '../../features/discounts/discounts-by-project';
import { FlatCardView } from '../../features/flats/flat-card';
import { PriceChanges } from '../../features/price-changes/price-changes';
import { SummaryDay, SummaryList } from '../../features/summaries/summary-list';
import { SummaryProjectView } from '../../features/summaries/summary-project';
import { useTitle } from '../../lib/use-title';

const positive = (v: string | null | undefined) =>
  v && /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : null;

function BadAddress() {
  return (
    <Card>
      <p role="alert">Неверный адрес страницы.</p>
    </Card>
  );
}

export function SummaryListPage() {
  useTitle('Ежедневная сводка');
  return (
    <Section>
      <SectionTitle icon={mdiSend}>Ежедневная сводка</SectionTitle>
      <SummaryList />
    </Section>
  );
}

/** /summary/:summaryId: one day's summary (the Telegram digest's button). */
export function SummaryDayPage() {
  useTitle('Ежедневная сводка');
  const id = positive(useParams().summaryId);
  return (
    <Section>
      <SectionTitle icon={mdiSend}>Ежедневная сводка</SectionTitle>
      {id ? <SummaryDay id={id} /> : <BadAddress />}
    </Section>
  );
}

export function SummaryProjectPage() {
  useTitle('Сводка по проекту');
  const { summaryId, projectId } = useParams();
  const s = positive(summaryId);
  const p = positive(projectId);
  return (
    <Section>
      <SectionTitle icon={mdiViewList}>Сводка по проекту</SectionTitle>
      {s && p ? <SummaryProjectView summaryId={s} projectId={p} /> : <BadAddress />}
    </Section>
  );
}

export function SummaryFlatPage() {
  useTitle('Сводка по квартире');
  const id = positive(useParams().flatId);
  return (
    <Section>
      <SectionTitle icon={mdiHomeCity}>Сводка по квартире</SectionTitle>
      {id ? <FlatCardView flatId={id} open /> : <BadAddress />}
    </Section>
  );
}

/** /flat?flatId=: the card of a flat, with a lookup field. */
const FLAT_ID_ERROR = 'Номер квартиры: целое положительное число';

export function FlatPage() {
  useTitle('Квартира');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const raw = params.get('flatId')?.trim() ?? '';
  const id = positive(raw);
  const [lookup, setLookup] = useState(raw);
  // A link with a bad flatId says so rather than showing an empty page.
  const [error, setError] = useState<string | null>(raw && !id ? FLAT_ID_ERROR : null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = positive(lookup.trim());
    if (!next) return setError(FLAT_ID_ERROR);
    setError(null);
    navigate(`/flat?flatId=${next}`);
  };
  return (
    <Section>
      <SectionTitle icon={mdiHomeCity}>Квартира</SectionTitle>
      <form onSubmit={submit} className="mb-6 flex max-w-md gap-2" noValidate>
        <input
          className={inputClass}
          inputMode="numeric"
          placeholder="Номер квартиры в базе"
          aria-label="Номер квартиры"
          value={lookup}
          onChange={(e) => setLookup(e.target.value)}
          data-testid="flat-lookup"
        />
        <Button type="submit" color="info" icon={mdiMagnify}>
          Найти
        </Button>
      </form>
      {error && (
        <p role="alert" className="mb-6 text-red-600">
          {error}
        </p>
      )}
      {id && <FlatCardView key={id} flatId={id} open={false} />}
    </Section>
  );
}

export function PriceChangesPage() {
  useTitle('Tables');
  return (
    <Section>
      <SectionTitle icon={mdiTable}>Сводка изменений цен</SectionTitle>
      <PriceChanges />
    </Section>
  );
}

export function DiscountsPage() {
  useTitle('Скидки по проектам');
  return (
    <Section>
      <SectionTitle icon={mdiSale}>Скидки по проектам</SectionTitle>
      <DiscountsByProject />
    </Section>
  );
}
