import {
  COMPARE_METRIC_LABELS,
  type CompareResponse,
  placeLine,
  type Sheet,
  type SheetColumn,
} from '@cena-metra/contract';

/** «Сравнение»: one row per day, one column per project (the metric's values). */
export function compareSheet(
  res: CompareResponse,
): Sheet<{ date: string; values: Map<number, number | null> }> {
  const byDate = new Map<string, Map<number, number | null>>();
  for (const s of res.series)
    for (const p of s.points) {
      const row = byDate.get(p.date) ?? new Map<number, number | null>();
      row.set(s.projectId, p.value);
      byDate.set(p.date, row);
    }
  const rows = [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, values]) => ({ date, values }));
  const type = res.metric === 'stock' ? 'integer' : 'decimal';
  return {
    name: COMPARE_METRIC_LABELS[res.metric],
    rows,
    columns: [
      { header: 'Дата', type: 'date', value: (r) => r.date, width: 12 },
      ...res.series.map(
        (s): SheetColumn<(typeof rows)[number]> => ({
          header: `${s.projectName} (${[s.developerName, placeLine(s.place)].filter(Boolean).join('; ')})`,
          type,
          value: (r) => r.values.get(s.projectId) ?? null,
        }),
      ),
    ],
  };
}
