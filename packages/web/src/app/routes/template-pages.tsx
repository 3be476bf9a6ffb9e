import { mdiAccountMultiple, mdiSquareEditOutline } from '@mdi/js';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DataState } from '../../components/states';
import { Button, Card, inputClass, Section, SectionTitle } from '../../components/ui';
import { useTitle } from '../../lib/use-title';

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

export function ResponsivePage() {
  useTitle('Адаптивность');
  const clients = useQuery({
    queryKey: ['clients'],
    queryFn: () => sampleData<Client>('/data-sources/clients.json?v=3'),
    retry: false,
  });
  const columns: [keyof Client, string][] = [
    ['name', 'Имя'],
    ['company', 'Компания'],
    ['city', 'Город'],
    ['progress', 'Прогресс'],
    ['created', 'Создан'],
  ];
  return (
    <Section>
      <SectionTitle icon={mdiAccountMultiple}>Адаптивность</SectionTitle>
      <DataState loading={clients.isLoading} error={clients.error} empty={clients.data?.length === 0}>
        <div className="rounded-2xl bg-white dark:bg-slate-900/70">
          <table className="w-full text-sm" data-testid="clients-table">
            <thead className="hidden lg:table-header-group">
              <tr className="text-left">
                {columns.map(([, label]) => (
                  <th key={label} className="px-3 py-2 font-semibold">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {clients.data?.map((c) => (
                <tr
                  key={c.id}
                  className="mb-4 block border-gray-100 border-b p-3 lg:table-row lg:p-0 lg:odd:bg-gray-50 dark:border-slate-800 lg:dark:odd:bg-slate-800/50"
                >
                  {columns.map(([key, label]) => (
                    <td
                      key={key}
                      data-label={label}
                      className="flex justify-between gap-4 px-3 py-1 before:font-semibold before:content-[attr(data-label)] lg:table-cell lg:py-2 lg:before:content-none"
                    >
                      {key === 'progress' ? (
                        <progress className="w-24" max={100} value={c.progress}>
                          {c.progress}%
                        </progress>
                      ) : (
                        c[key]
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
    </Section>
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
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setSent(`Отправлено: ${data.get('name')} (${data.get('email')}), ${data.get('subject')}`);
  };
  return (
    <Section>
      <SectionTitle icon={mdiSquareEditOutline}>Формы</SectionTitle>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Заявка на доступ">
          <form onSubmit={submit} onReset={() => setSent(null)} aria-label="Заявка">
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
            <div className="mb-4 flex flex-wrap gap-6">
              <label className="flex items-center gap-2">
                <input type="checkbox" name="agree" required /> Согласен с условиями
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="plan" value="base" defaultChecked /> Базовый
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="plan" value="pro" /> Расширенный
              </label>
              <label className="flex items-center gap-2">
                <input type="file" name="file" className="text-sm" />
              </label>
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
