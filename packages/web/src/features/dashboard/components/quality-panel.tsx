import { mdiAlertCircle, mdiCheckCircle } from '@mdi/js';
import { useProjectQuality } from '../../../api/market';
import { Icon } from '../../../components/icon';
import { DataState } from '../../../components/states';
import { Card } from '../../../components/ui';
import { qualityLines } from '../lib/quality';

/** «Качество данных»: why a number of this project may look odd (gaps, partial scans, outliers…). */
export function QualityPanel({ projectId }: { projectId: number | null }) {
  const q = useProjectQuality(projectId);
  return (
    <Card className="mb-6" title="Качество данных">
      <DataState loading={q.isLoading} error={q.error}>
        {q.data && (
          <dl className="grid grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-2" data-testid="quality-panel">
            {qualityLines(q.data).map((line) => (
              <div
                key={line.label}
                className="flex items-start gap-2"
                data-warn={line.warn ? 'true' : 'false'}
              >
                <Icon
                  path={line.warn ? mdiAlertCircle : mdiCheckCircle}
                  className={line.warn ? 'mt-0.5 text-amber-500' : 'mt-0.5 text-emerald-500'}
                  size={18}
                />
                <div>
                  <dt className="text-gray-500 text-sm dark:text-slate-400">{line.label}</dt>
                  <dd>{line.value}</dd>
                </div>
              </div>
            ))}
          </dl>
        )}
      </DataState>
    </Card>
  );
}
