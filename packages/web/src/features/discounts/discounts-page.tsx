import { mdiSale } from '@mdi/js';
import { Section, SectionTitle } from '../../components/ui';
import { useTitle } from '../../lib/use-title';
import { DiscountsByProject } from './discounts-by-project';

export function DiscountsPage() {
  useTitle('Скидки по проектам');
  return (
    <Section>
      <SectionTitle icon={mdiSale}>Скидки по проектам</SectionTitle>
      <DiscountsByProject />
    </Section>
  );
}
