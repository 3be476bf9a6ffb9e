import { PLACE_FIELD_LABELS, type PlaceField, type ProjectPlace, stationText } from '@cena-metra/contract';
import { mdiMapMarkerOutline, mdiPencil } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { DataState } from '../../../components/states';
import { toast } from '../../../components/toast';
import { Button, Card, inputClass } from '../../../components/ui';
import { useMay } from '../../../lib/access';
import { useSeen } from '../../../lib/in-view';
import { useProjectPlace } from '../api';
import { type PlaceFormState, placeEditOf, placeFormOf } from '../lib/place-form';

/** The lines of the place shown: the field, its value, and whether a hand edit holds it. */
function placeLines(p: ProjectPlace): { field: PlaceField; value: string }[] {
  const { place } = p;
  return [
    { field: 'region', value: place.region ?? '' },
    { field: 'city', value: place.city ?? '' },
    { field: 'district', value: place.district ?? '' },
    { field: 'address', value: place.address ?? '' },
    {
      field: 'coordinates',
      value:
        place.latitude === null || place.longitude === null
          ? ''
          : `${place.latitude.toLocaleString('ru-RU', { maximumFractionDigits: 6 })}, ${place.longitude.toLocaleString('ru-RU', { maximumFractionDigits: 6 })}`,
    },
    { field: 'stations', value: place.stations.map(stationText).join('; ') },
  ];
}

/**
 * «Где проект» (DESIGN §11.3): the project's place as the sources give it, with a hand edit that wins over
 * them; a field emptied in the form shows the sources' value again.
 */
export function PlacePanel({ projectId }: { projectId: number }) {
  // asked when the panel comes into view (DESIGN §12.2)
  const [ref, seen] = useSeen();
  const { query, edit } = useProjectPlace(seen ? projectId : null);
  // a hand edit of a place is a setting: admins' (DESIGN §11.5)
  const mayEdit = useMay('admin');
  const [form, setForm] = useState<PlaceFormState | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!query.data || !form) return;
    const { edit: change, errors: found } = placeEditOf(query.data, form);
    setErrors(found);
    if (found.length) return;
    if (Object.keys(change).length === 0) return setForm(null);
    edit.mutate(change, {
      onSuccess: () => {
        setForm(null);
        toast('Место проекта сохранено', 'success');
      },
      onError: (err) => setErrors([(err as Error).message]),
    });
  };
  const input = (key: keyof PlaceFormState, label: string, hint?: string) => (
    <label className="block">
      <span className="mb-1 block font-semibold text-sm">{label}</span>
      <input
        className={inputClass}
        name={key}
        data-testid={`place-${key}`}
        value={form?.[key] ?? ''}
        placeholder={hint}
        onChange={(e) => setForm((f) => f && { ...f, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <div ref={ref}>
      <Card className="mb-6" title="Где проект">
        <DataState loading={!query.data && !query.error} error={query.error}>
          {query.data && !form && (
            <div className="flex flex-wrap items-start justify-between gap-4">
              <dl
                className="grid flex-1 grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-3"
                data-testid="place-panel"
              >
                {placeLines(query.data).map(({ field, value }) => (
                  <div key={field}>
                    <dt className="text-gray-500 text-sm dark:text-slate-400">
                      {PLACE_FIELD_LABELS[field]}
                      {query.data.edited.includes(field) && (
                        <span
                          className="ml-2 text-amber-600 text-xs"
                          title="Задано вручную: важнее источников"
                        >
                          вручную
                        </span>
                      )}
                    </dt>
                    <dd data-field={field}>{value || '—'}</dd>
                  </div>
                ))}
              </dl>
              {mayEdit && (
                <Button
                  color="white"
                  icon={mdiPencil}
                  data-testid="place-edit"
                  onClick={() => {
                    setErrors([]);
                    setForm(placeFormOf(query.data.place));
                  }}
                >
                  Изменить
                </Button>
              )}
            </div>
          )}
          {query.data && form && (
            <form onSubmit={submit} noValidate aria-label="Место проекта" data-testid="place-form">
              <div className="mb-4 grid grid-cols-1 gap-4 md:grid-cols-3">
                {input('region', 'Регион')}
                {input('city', 'Город')}
                {input('district', 'Район')}
                {input('address', 'Адрес')}
                {input('latitude', 'Широта', '55,7558')}
                {input('longitude', 'Долгота', '37,6173')}
              </div>
              <label className="mb-4 block">
                <span className="mb-1 block font-semibold text-sm">Станции (до трёх, по одной в строке)</span>
                <textarea
                  className={inputClass}
                  name="stations"
                  rows={3}
                  data-testid="place-stations"
                  placeholder="Бунинская аллея, 12, пешком"
                  value={form.stations}
                  onChange={(e) => setForm((f) => f && { ...f, stations: e.target.value })}
                />
              </label>
              <p className="mb-4 text-gray-500 text-sm dark:text-slate-400">
                Заданное вручную важнее данных источников; пустое поле возвращает значение из источников.
              </p>
              {errors.length > 0 && (
                <ul
                  role="alert"
                  data-testid="place-errors"
                  className="mb-4 rounded-lg bg-red-600 px-4 py-3 text-white"
                >
                  {errors.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
              <div className="flex gap-2">
                <Button type="submit" color="info" icon={mdiMapMarkerOutline} disabled={edit.isPending}>
                  {edit.isPending ? 'Сохранение…' : 'Сохранить'}
                </Button>
                <Button color="outline" onClick={() => setForm(null)}>
                  Отмена
                </Button>
              </div>
            </form>
          )}
        </DataState>
      </Card>
    </div>
  );
}
