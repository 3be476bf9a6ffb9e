import { mdiTable } from '@mdi/js';
import { Section, SectionTitle } from '../../components/ui';
import { useTitle } from '../../lib/use-title';
import { PriceChanges } from './price-changes';

export function PriceChangesPage() {
  useTitle('Tables');
  return (
    <Section>
      <SectionTitle icon={mdiTable}>Сводка изменений цен</SectionTitle>
      <PriceChanges />
    </Section>
  );
}
