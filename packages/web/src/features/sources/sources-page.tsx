import type { SourceKind, SourceRun, SourceView } from '@cena-metra/contract';
import { SOURCE_KINDS } from '@cena-metra/contract';
import { mdiCloudDownload, mdiContentSave, mdiDelete, mdiPencil, mdiPlay, mdiPlus } from '@mdi/js';
import { type FormEvent, useState } from 'react';
import { ColumnTable } from '../../components/column-table';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Card, inputClass, Section, SectionTitle, Select } from '../../components/ui';
import { actionsColumn, type Column } from '../../lib/columns';
import { useTitle } from '../../lib/use-title';
import { useSourceActions, useSourceRuns, useSources } from './api';
import { checkSourceForm, EMPTY_FORM, KIND_LABELS, runStatusLabel, type SourceForm } from './lib/source-form';
import { RunProgress } from './run-progress';

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('ru-RU', {
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
const day = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');

/** «Источники» (DESIGN §10.8): the price lists collected every morning, their last runs, add and run now. */
export function SourcesPage() {
  useTitle('Источники');
  const sources = useSources();
  const [open, setOpen] = useState<number | null>(null);
  const [editing, setEditing] = useState<SourceView | null>(null);
  const actions = useSourceActions();
  return (
    <Section>
      <SectionTitle icon={mdiCloudDownload}>Источники</SectionTitle>
      <p className="mb-6 max-w-3xl text-gray-600 dark:text-slate-300">
        Прайс-листы застройщиков, которые сервер собирает сам каждое утро. Сбор можно запустить и сейчас:
        снимок дня заменит собранный раньше.
      </p>
      <DataState
        loading={sources.isLoading}
        error={sources.error}
        empty={sources.data?.length === 0}
        emptyText="Источников пока нет: добавьте первый ниже."
      >
        <div className="mb-6 overflow-x-auto rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={sourceColumns(actions, open, (s) => setOpen(open === s.id ? null : s.id), setEditing)}
            rows={sources.data ?? []}
            rowKey={(s) => s.id}
            rowTestId="source-row"
            rowAttributes={(s) => ({ 'data-failing': s.failing ? 'true' : 'false' })}
            testId="sources-table"
          />
        </div>
      </DataState>
      {open !== null && (
        <RunsCard sourceId={open} name={sources.data?.find((s) => s.id === open)?.name ?? ''} />
      )}
      <SourceFormCard key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
    </Section>
  );
}

type SourceActions = ReturnType<typeof useSourceActions>;

/** The sources: what each is, its last collection, the next, and what an admin does to it. */
function sourceColumns(
  actions: SourceActions,
  open: number | null,
  onToggle: (s: SourceView) => void,
  onEdit: (s: SourceView) => void,
): Column<SourceView>[] {
  return [
    {
      key: 'name',
      label: 'Источник',
      type: 'text',
      value: (s) => s.name,
      cell: (s) => (
        <>
          <button
            type="button"
            className="text-left text-blue-600 hover:underline dark:text-blue-400"
            onClick={() => onToggle(s)}
            aria-expanded={open === s.id}
          >
            {s.name}
          </button>
          <div className="max-w-xs truncate text-gray-500 text-xs dark:text-slate-400" title={s.url}>
            {s.url}
          </div>
          {s.failing && (
            <span
              className="mt-1 inline-block rounded-full border border-red-400 px-2 text-red-600 text-xs"
              data-testid="source-failing"
            >
              не собирается второй раз подряд
            </span>
          )}
        </>
      ),
    },
    { key: 'kind', label: 'Вид', type: 'text', value: (s) => KIND_LABELS[s.kind] },
    {
      key: 'last',
      label: 'Последний сбор',
      type: 'text',
      value: (s) => (s.lastRun ? `${day(s.lastRun.date)} · ${runStatusLabel(s.lastRun.status)}` : null),
      cell: (s) => {
        const last = s.lastRun;
        if (!last) return '—';
        return (
          <>
            {day(last.date)} · <span data-testid="source-status">{runStatusLabel(last.status)}</span>
            {last.partial > 0 && (
              <span
                className="ml-2 rounded-full border border-amber-500 px-2 text-amber-700 text-xs dark:text-amber-400"
                data-testid="source-partial"
                title={
                  s.kind === 'domrf'
                    ? 'Не все объекты реестра получены: их спросят при следующем сборе'
                    : 'В списке меньше половины обычного числа квартир: пропавшие не сняты'
                }
              >
                неполный список
              </span>
            )}
            {last.error && <div className="max-w-xs text-red-600 text-xs">{last.error}</div>}
          </>
        );
      },
    },
    {
      key: 'flats',
      label: 'Квартир',
      type: 'integer',
      value: (s) => s.lastRun?.flats ?? null,
      cell: (s) =>
        s.lastRun
          ? `${s.lastRun.flats.toLocaleString('ru-RU')}${s.kind === 'domrf' ? ' объектов' : ''}`
          : '—',
    },
    {
      key: 'next',
      label: 'Следующий',
      type: 'text',
      value: (s) => (s.nextRun ? dateTime(s.nextRun) : 'выключен'),
    },
    {
      key: 'enabled',
      label: 'Сбор',
      type: 'text',
      value: (s) => (s.enabled ? 'включён' : 'выключен'),
      cell: (s) => (
        <label className="flex cursor-pointer items-center gap-2">
          <input
            type="checkbox"
            checked={s.enabled}
            data-testid="source-enabled"
            onChange={(e) =>
              actions.setEnabled.mutate(
                { id: s.id, enabled: e.target.checked },
                { onError: (err) => toast(err.message) },
              )
            }
          />
          {s.enabled ? 'включён' : 'выключен'}
        </label>
      ),
    },
    actionsColumn((s) => {
      const running = actions.run.isPending && actions.run.variables === s.id;
      return (
        <>
          <Button
            small
            icon={mdiPlay}
            disabled={running}
            onClick={() =>
              actions.run.mutate(s.id, {
                onSuccess: (run) =>
                  run.status === 'failed'
                    ? toast(`«${s.name}»: ${run.error}`)
                    : toast(
                        `«${s.name}»: собрано ${s.kind === 'domrf' ? 'объектов реестра' : 'квартир'} ${run.flats.toLocaleString('ru-RU')}`,
                        'success',
                      ),
                onError: (err) => toast(err.message),
              })
            }
          >
            {running ? 'Собираю…' : 'Собрать'}
          </Button>
          {running && <RunProgress sourceId={s.id} kind={s.kind} />}{' '}
          <Button small icon={mdiPencil} aria-label={`Изменить «${s.name}»`} onClick={() => onEdit(s)} />{' '}
          <Button
            small
            icon={mdiDelete}
            aria-label={`Удалить «${s.name}»`}
            onClick={() => {
              if (window.confirm(`Удалить источник «${s.name}»? Собранные снимки останутся.`))
                actions.remove.mutate(s.id, { onError: (err) => toast(err.message) });
            }}
          />
        </>
      );
    }),
  ];
}

/** A source's collections, newest first. */
const RUN_COLUMNS: Column<SourceRun>[] = [
  {
    key: 'started',
    label: 'Начат',
    type: 'text',
    value: (r) => dateTime(r.startedAt),
    className: () => 'whitespace-nowrap',
  },
  { key: 'date', label: 'За день', type: 'date', value: (r) => r.date, text: (r) => day(r.date) },
  { key: 'status', label: 'Итог', type: 'text', value: (r) => runStatusLabel(r.status) },
  { key: 'http', label: 'HTTP', type: 'integer', numeric: false, value: (r) => r.httpStatus },
  { key: 'pages', label: 'Страниц', type: 'integer', value: (r) => r.pages },
  { key: 'snapshots', label: 'Снимков', type: 'integer', value: (r) => r.snapshots },
  { key: 'flats', label: 'Квартир (объектов реестра)', type: 'integer', value: (r) => r.flats },
  {
    key: 'error',
    label: 'Ошибка',
    type: 'text',
    value: (r) => r.error,
    text: (r) => r.error ?? '',
    className: () => 'max-w-md text-red-600 text-xs',
  },
];

function RunsCard({ sourceId, name }: { sourceId: number; name: string }) {
  const runs = useSourceRuns(sourceId);
  return (
    <Card className="mb-6" title={`Сборы «${name}»`}>
      <DataState
        loading={runs.isLoading}
        error={runs.error}
        empty={runs.data?.length === 0}
        emptyText="Источник ещё не собирали."
      >
        <div className="overflow-x-auto">
          <ColumnTable
            columns={RUN_COLUMNS}
            rows={runs.data ?? []}
            rowKey={(r) => r.id}
            rowAttributes={(r) => ({ 'data-status': r.status })}
            testId="source-runs"
          />
        </div>
      </DataState>
    </Card>
  );
}

/** The add form, or the edit form of `editing` (header values are never shown: empty keeps them). */
function SourceFormCard({ editing, onDone }: { editing: SourceView | null; onDone: () => void }) {
  const [form, setForm] = useState<SourceForm>(
    editing
      ? {
          name: editing.name,
          kind: editing.kind,
          url: editing.url,
          headers: '',
          developer: editing.developer ?? '',
          project: editing.project ?? '',
        }
      : EMPTY_FORM,
  );
  const [error, setError] = useState<string | null>(null);
  const { add, update } = useSourceActions();
  const pending = add.isPending || update.isPending;
  const set = (k: keyof SourceForm) => (v: string) => setForm({ ...form, [k]: v });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkSourceForm(form);
    if ('problem' in checked) return setError(checked.problem);
    setError(null);
    const onError = (err: Error) => setError(err.message);
    if (editing) {
      const { headers: _headers, ...rest } = checked.body;
      update.mutate(
        { id: editing.id, data: form.headers.trim() ? checked.body : rest },
        {
          onSuccess: (s) => {
            toast(`Источник «${s.name}» изменён`, 'success');
            onDone();
          },
          onError,
        },
      );
      return;
    }
    add.mutate(checked.body, {
      onSuccess: (s) => {
        toast(`Источник «${s.name}» добавлен`, 'success');
        setForm(EMPTY_FORM);
      },
      onError,
    });
  };
  const text = (label: string, k: keyof SourceForm, placeholder = '') => (
    <label className="block">
      <span className="mb-1 block font-semibold text-sm">{label}</span>
      <input
        className={inputClass}
        name={k}
        value={form[k]}
        placeholder={placeholder}
        onChange={(e) => set(k)(e.target.value)}
      />
    </label>
  );
  return (
    <Card title={editing ? `Изменить «${editing.name}»` : 'Добавить источник'}>
      <form
        onSubmit={submit}
        noValidate
        aria-label={editing ? 'Изменить источник' : 'Добавить источник'}
        className="grid max-w-3xl grid-cols-1 gap-4 md:grid-cols-2"
      >
        {text('Название', 'name', 'ПИК — Саларьево парк')}
        <Select
          label="Вид"
          testId="source-kind"
          value={form.kind}
          options={SOURCE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k as SourceKind] }))}
          onChange={(v) => set('kind')(v)}
        />
        <div className="md:col-span-2">
          {text(
            form.kind === 'domrf' ? 'Адрес списка реестра (регионы — в place=)' : 'Адрес',
            'url',
            form.kind === 'domrf'
              ? 'https://наш.дом.рф/сервисы/api/kn/object?place=77,50'
              : 'https://example.ru/feed.xml',
          )}
        </div>
        {text('Застройщик (если список его не называет)', 'developer')}
        {text('Проект (если список его не называет)', 'project')}
        <label className="block md:col-span-2">
          <span className="mb-1 block font-semibold text-sm">
            Заголовки запроса (по одному: «Имя: значение»)
            {editing &&
              editing.headerNames.length > 0 &&
              ` — пусто: оставить ${editing.headerNames.join(', ')}`}
          </span>
          <textarea
            className={inputClass}
            name="headers"
            rows={2}
            value={form.headers}
            onChange={(e) => set('headers')(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="text-red-600 md:col-span-2">
            {error}
          </p>
        )}
        <div className="md:col-span-2">
          <Button type="submit" icon={editing ? mdiContentSave : mdiPlus} disabled={pending}>
            {pending ? 'Сохраняю…' : editing ? 'Сохранить' : 'Добавить'}
          </Button>
          {editing && (
            <Button className="ml-2" onClick={onDone}>
              Отмена
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
