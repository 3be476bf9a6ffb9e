import { mdiMonitor } from '@mdi/js';
import { Section, SectionTitle } from '../../components/ui';
import { useTitle } from '../../lib/use-title';
import { Dashboard } from './components/dashboard';

export default function DashboardPage() {
  useTitle('Dashboard');
  return (
    <Section>
      <SectionTitle icon={mdiMonitor}>Анализ цен</SectionTitle>
      <Dashboard />
    </Section>
  );
}
