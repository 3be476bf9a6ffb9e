import { mdiHomeCity, mdiMagnify } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { BadAddress } from '../../components/states';
import { Button, inputClass, Section, SectionTitle } from '../../components/ui';
import { positiveId as positive } from '../../lib/ids';
import { useTitle } from '../../lib/use-title';
import { FlatCardView } from './flat-card';

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
