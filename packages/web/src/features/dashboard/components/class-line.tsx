import {
  CLASS_ORIGIN_LABELS,
  formatRoubles,
  PRICE_CLASS_LABELS,
  PRICE_CLASSES,
  type PriceClass,
  type ProjectClass,
} from '@cena-metra/contract';
import { toast } from '../../../components/toast';
import { Select } from '../../../components/ui';
import { useMay } from '../../../lib/access';
import { useProjectClass } from '../api';

/** What the region's bands say, for the line's title: «Москва: комфорт от 250 000 ₽/м², …». */
export function bandText(c: ProjectClass): string {
  const f = c.band.floors;
  return `${c.band.name}: комфорт от ${formatRoubles(f.comfort)}, бизнес от ${formatRoubles(f.business)}, премиум от ${formatRoubles(f.premium)} ₽/м²`;
}

/**
 * The project's class on «Рынок» with its origin (DESIGN §12.3): set by hand, the registry's, else by its
 * region's price bands; what each says beside it; admins set it by hand or give it back.
 */
export function ClassLine({ projectId }: { projectId: number | null }) {
  const { query, edit } = useProjectClass(projectId);
  const mayEdit = useMay('admin');
  const c = query.data;
  if (!c) return null;
  const label = (v: PriceClass | null) => (v ? PRICE_CLASS_LABELS[v] : '—');
  return (
    <div
      className="mb-3 flex flex-wrap items-end justify-between gap-3 text-sm"
      data-testid="project-class"
      data-origin={c.classOrigin ?? ''}
    >
      <p className="text-gray-600 dark:text-slate-300">
        Класс на «Рынке»: <strong data-testid="project-class-value">{label(c.priceClass)}</strong>
        {c.classOrigin && <> ({CLASS_ORIGIN_LABELS[c.classOrigin]})</>}
        <span className="block text-gray-500 text-xs dark:text-slate-400">
          по реестру: {c.registry ?? '—'} · по цене: <span title={bandText(c)}>{label(c.byPrice)}</span>
          {c.avgMeterPrice !== null && <> при {formatRoubles(c.avgMeterPrice)} ₽/м²</>} ({c.band.name}) ·
          вручную: {label(c.hand)}
        </span>
      </p>
      {mayEdit && (
        <div className="w-56">
          <Select
            label="Класс вручную"
            testId="project-class-edit"
            value={c.hand ?? ''}
            options={[
              { value: '', label: 'Как реестр и цена' },
              ...PRICE_CLASSES.map((v) => ({ value: v, label: PRICE_CLASS_LABELS[v] })),
            ]}
            onChange={(v) =>
              edit.mutate((v || null) as PriceClass | null, {
                onSuccess: () => toast('Класс проекта сохранён', 'success'),
                onError: (e) => toast((e as Error).message, 'error'),
              })
            }
          />
        </div>
      )}
    </div>
  );
}
