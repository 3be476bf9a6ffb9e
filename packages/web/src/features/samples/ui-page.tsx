import { mdiAlertCircle, mdiCheckCircle, mdiInformation, mdiPalette, mdiThemeLightDark } from '@mdi/js';
import { useState } from 'react';
import { Icon } from '../../components/icon';
import { Modal } from '../../components/modal';
import { Button, Card, Section, SectionTitle } from '../../components/ui';
import { setDarkMode, useDarkMode } from '../../lib/dark-mode';
import { useTitle } from '../../lib/use-title';

const BARS = [
  { color: 'bg-blue-600', icon: mdiInformation, text: 'Новые снимки загружаются каждое утро.' },
  { color: 'bg-emerald-600', icon: mdiCheckCircle, text: 'Импорт завершён: 23 проекта обновлены.' },
  { color: 'bg-amber-500', icon: mdiAlertCircle, text: 'У двух проектов нет снимка за вчера.' },
  { color: 'bg-red-600', icon: mdiAlertCircle, text: 'Сервер застройщика не ответил.' },
];

const BUTTONS = [
  ['white', 'Белая'],
  ['info', 'Синяя'],
  ['success', 'Зелёная'],
  ['warning', 'Жёлтая'],
  ['danger', 'Красная'],
  ['outline', 'Контурная'],
] as const;

/** The template's interface sampler: theme card, modals, notification bars, buttons, pills. */
export default function UiPage() {
  useTitle('Интерфейс');
  const dark = useDarkMode();
  const [modal, setModal] = useState<null | 'info' | 'danger' | 'success'>(null);
  const [last, setLast] = useState('—');
  const close = (result: string) => () => {
    setLast(result);
    setModal(null);
  };
  return (
    <Section>
      <SectionTitle icon={mdiPalette}>Интерфейс</SectionTitle>
      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Тема">
          <Button icon={mdiThemeLightDark} onClick={() => setDarkMode(!dark)}>
            {dark ? 'Светлая тема' : 'Тёмная тема'}
          </Button>
        </Card>
        <Card title="Модальные окна">
          <div className="flex flex-wrap gap-2">
            <Button color="info" onClick={() => setModal('info')}>
              Подтверждение
            </Button>
            <Button color="danger" onClick={() => setModal('danger')}>
              Опасное действие
            </Button>
            <Button color="success" onClick={() => setModal('success')}>
              Успех
            </Button>
          </div>
          <p className="mt-4 text-gray-500 text-sm">
            Последний ответ: <span data-testid="modal-result">{last}</span>
          </p>
        </Card>
      </div>
      <div className="mb-6 space-y-3">
        {BARS.map((b) => (
          <div key={b.text} className={`flex items-center gap-3 rounded-lg px-4 py-3 text-white ${b.color}`}>
            <Icon path={b.icon} />
            {b.text}
          </div>
        ))}
      </div>
      <Card title="Кнопки и метки">
        <div className="mb-4 flex flex-wrap gap-2">
          {BUTTONS.map(([color, label]) => (
            <Button key={color} color={color}>
              {label}
            </Button>
          ))}
          <Button color="info" rounded>
            Круглая
          </Button>
          <Button disabled>Недоступна</Button>
        </div>
        <div className="flex flex-wrap gap-2">
          {['Студия', '1-комнатная', 'С отделкой', '4 кв. 2026 г.'].map((p) => (
            <span
              key={p}
              className="rounded-full border border-gray-300 px-3 py-1 text-sm dark:border-slate-600"
            >
              {p}
            </span>
          ))}
        </div>
      </Card>
      <Modal
        open={modal === 'info'}
        title="Подтвердите действие"
        confirmLabel="Подтвердить"
        cancelLabel="Отмена"
        onConfirm={close('подтверждено')}
        onCancel={close('отменено')}
      >
        Обновить сводку за сегодня?
      </Modal>
      <Modal
        open={modal === 'danger'}
        title="Удалить подписку?"
        color="danger"
        confirmLabel="Удалить"
        cancelLabel="Отмена"
        onConfirm={close('удалено')}
        onCancel={close('отменено')}
      >
        Уведомления перестанут приходить.
      </Modal>
      <Modal
        open={modal === 'success'}
        title="Готово"
        color="success"
        onConfirm={close('готово')}
        onCancel={close('отменено')}
      >
        Данные обновлены.
      </Modal>
    </Section>
  );
}
