import { mdiSend, mdiViewList } from '@mdi/js';
import { useParams } from 'react-router';
import { BadAddress } from '../../components/states';
import { Section, SectionTitle } from '../../components/ui';
import { positiveId as positive } from '../../lib/ids';
import { useTitle } from '../../lib/use-title';
import { SummaryDay, SummaryList } from './summary-list';
import { SummaryProjectView } from './summary-project';

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
