import type { SourceKind } from '@cena-metra/contract';
import { useSourceRuns } from './api';

/**
 * How far a collection that runs now got (its run's record, asked again while it runs): a registry's
 * requests and objects listed, a price list's pages. Nothing before its first record.
 */
export function RunProgress({ sourceId, kind }: { sourceId: number; kind: SourceKind }) {
  const runs = useSourceRuns(sourceId, true);
  const live = runs.data?.find((r) => r.status === 'running');
  if (!live || live.pages === 0) return null;
  return (
    <span className="ml-2 text-gray-500 text-xs" data-testid="source-progress" role="status">
      {kind === 'domrf'
        ? `запросов ${live.pages.toLocaleString('ru-RU')}, объектов ${live.flats.toLocaleString('ru-RU')}`
        : `страниц ${live.pages.toLocaleString('ru-RU')}`}
    </span>
  );
}
