import { mdiAccountMultiple, mdiHistory, mdiSquareEditOutline } from '@mdi/js';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ColumnTable } from '../../components/column-table';
import { Checkbox, FilePicker, Radio, Switch } from '../../components/controls';
import { Icon } from '../../components/icon';
import { DataState } from '../../components/states';
import { Button, Card, inputClass, Section, SectionTitle } from '../../components/ui';
import type { Column } from '../../lib/columns';
import { useTitle } from '../../lib/use-title';
import { type Transaction, transactionViews } from './transactions';

interface Client {
  id: number;
  login: string;
  name: string;
  company: string;
  city: string;
  progress: number;
  created: string;
}

/** Sample data of the template: outside /api, `?v=3` as the spec asks; a failure shows its message. */
async function sampleData<T>(path: string): Promise<T[]> {
  const res = await fetch(path);
  if (!res.ok)
    throw new Error(`Не удалось загрузить пример данных (${path}): ${res.status} ${res.statusText}`);
  return ((await res.json()) as { data: T[] }).data;
}

/** The template's sample clients, as its «Responsive» page shows them. */
const CLIENT_COLUMNS: Column<Client>[] = [
  { key: 'name', label: 'Имя', type: 'text', value: (c) => c.name },
  { key: 'company', label: 'Компания', type: 'text', value: (c) => c.company },
  { key: 'city', label: 'Город', type: 'text', value: (c) => c.city },
  {
    key: 'progress',
    label: 'Прогресс',
    type: 'integer',
    numeric: false,
    value: (c) => c.progress,
    cell: (c) => (
      <progress className="w-24" max={100} value={c.progress}>
        {c.progress}%
      </progress>
    ),
  },
  { key: 'created', label: 'Создан', type: 'text', value: (c) => c.created },
];

export function ResponsivePage() {
  useTitle('Адаптивность');
  const clients = useQuery({
    queryKey: ['clients'],
    queryFn: () => sampleData<Client>('/data-sources/clients.json?v=3'),
    retry: false,
  });
  return (
    <Section>
      <SectionTitle icon={mdiAccountMultiple}>Адаптивность</SectionTitle>
      <DataState loading={clients.isLoading} error={clients.error} empty={clients.data?.length === 0}>
        <div className="rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={CLIENT_COLUMNS}
            rows={clients.data ?? []}
            rowKey={(c) => c.id}
            testId="clients-table"
          />
        </div>
      </DataState>
      <div className="mt-6">
        <SectionTitle icon={mdiHistory}>Последние операции</SectionTitle>
        <Transactions />
      </div>
    </Section>
  );
}

/** The template's transactions list (`data-sources/history.json?v=3`). */
function Transactions() {
  const history = useQuery({
    queryKey: ['history'],
    queryFn: () => sampleData<Transaction>('/data-sources/history.json?v=3'),
    retry: false,
  });
  return (
    <DataState loading={history.isLoading} error={history.error} empty={history.data?.length === 0}>
      <ul className="grid grid-cols-1 gap-6 md:grid-cols-2" data-testid="transactions">
        {transactionViews(history.data ?? []).map((t) => (
          <li
            key={`${t.date}-${t.account}-${t.name}`}
            className="flex items-center gap-4 rounded-2xl bg-white p-6 dark:bg-slate-900/70"
          >
            <span
              className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-gray-50 dark:bg-slate-800 ${t.tone}`}
            >
              <Icon path={t.icon} size={24} />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold">{t.name}</p>
              <p className="text-gray-500 text-sm dark:text-slate-400">
                {t.date} · {t.business} · {t.account}
              </p>
            </div>
            <div className="text-right">
              <p className={`whitespace-nowrap font-semibold tabular-nums ${t.tone}`}>
                {t.sign}
                {t.amount} ₽
              </p>
              <span className="rounded-full border border-gray-300 px-2 text-xs dark:border-slate-600">
                {t.label}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </DataState>
  );
}

const STATUSES = [
  ['bg-blue-600', 'Форма готова к заполнению'],
  ['bg-emerald-600', 'Данные сохранены'],
  ['bg-red-600', 'Ошибка: проверьте поля'],
  ['bg-amber-500', 'Внимание: часть полей не заполнена'],
] as const;

export function FormsPage() {
  useTitle('Формы');
  const [status, setStatus] = useState(0);
  const [sent, setSent] = useState<string | null>(null);
  // A form reset re-mounts the file picker so the chosen file's name goes too.
  const [resets, setResets] = useState(0);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const file = data.get('file');
    setSent(
      `Отправлено: ${data.get('name')} (${data.get('email')}), ${data.get('subject')}, тариф: ${
        data.get('plan') === 'pro' ? 'расширенный' : 'базовый'
      }, сводка: ${data.get('digest') ? 'да' : 'нет'}${file instanceof File && file.name ? `, файл: ${file.name}` : ''}`,
    );
  };
  return (
    <Section>
      <SectionTitle icon={mdiSquareEditOutline}>Формы</SectionTitle>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Заявка на доступ">
          <form
            onSubmit={submit}
            onReset={() => {
              setSent(null);
              setResets((n) => n + 1);
            }}
            aria-label="Заявка"
          >
            <div className="mb-4 grid grid-cols-1 gap-4 md:grid-cols-2">
              <label className="block">
                <span className="mb-1 block font-semibold">Имя</span>
                <input name="name" required maxLength={100} className={inputClass} />
              </label>
              <label className="block">
                <span className="mb-1 block font-semibold">Эл. почта</span>
                <input name="email" type="email" required maxLength={200} className={inputClass} />
              </label>
            </div>
            <p className="-mt-2 mb-4 text-gray-500 text-sm">Ответим на эту почту в течение дня.</p>
            <label className="mb-4 block">
              <span className="mb-1 block font-semibold">Тема</span>
              <select name="subject" className={inputClass}>
                <option>Доступ к аналитике</option>
                <option>Загрузка прайс-листов</option>
                <option>Телеграм-бот</option>
              </select>
            </label>
            <label className="mb-4 block">
              <span className="mb-1 block font-semibold">Сообщение</span>
              <textarea name="message" maxLength={2000} rows={4} className={`${inputClass} h-auto py-2`} />
            </label>
            <fieldset className="mb-4">
              <legend className="mb-2 font-semibold">Тариф</legend>
              <div className="flex flex-wrap gap-6">
                <Radio name="plan" value="base" defaultChecked>
                  Базовый
                </Radio>
                <Radio name="plan" value="pro">
                  Расширенный
                </Radio>
              </div>
            </fieldset>
            <div className="mb-4 flex flex-col gap-3">
              <Switch name="digest" defaultChecked>
                Присылать ежедневную сводку
              </Switch>
              <Checkbox name="agree" required>
                Согласен с условиями
              </Checkbox>
            </div>
            <div className="mb-4">
              <span className="mb-1 block font-semibold">Прайс-лист</span>
              <FilePicker key={resets} name="file" accept=".csv,.json" />
              <p className="mt-1 text-gray-500 text-sm">CSV или JSON, до 64 МБ.</p>
            </div>
            {sent && (
              <p role="status" className="mb-4 rounded-lg bg-emerald-600 px-4 py-3 text-white">
                {sent}
              </p>
            )}
            <div className="flex gap-2">
              <Button type="submit" color="info">
                Отправить
              </Button>
              <Button type="reset" color="outline">
                Очистить
              </Button>
            </div>
          </form>
        </Card>
        <Card title="Статус">
          <p
            data-testid="status-bar"
            className={`mb-4 rounded-lg px-4 py-3 text-white ${STATUSES[status][0]}`}
          >
            {STATUSES[status][1]}
          </p>
          <Button onClick={() => setStatus((s) => (s + 1) % STATUSES.length)}>Следующий статус</Button>
        </Card>
      </div>
    </Section>
  );
}
