import { mdiMonitor } from '@mdi/js';
import { Section, SectionTitle } from '../../components/ui';
import { Dashboard } from '../../features/dashboard/components/dashboard';
import { useTitle } from '../../lib/use-title';

export default function DashboardPage() {
  useTitle('Dashboard');
  return (
    <Section>
      <SectionTitle icon={mdiMonitor}>Анализ цен</SectionTitle>
      <Dashboard />
    </Section>
  );
}
