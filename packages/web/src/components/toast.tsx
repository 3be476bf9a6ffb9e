import { mdiAlertCircle, mdiCheckCircle, mdiClose } from '@mdi/js';
import { createStore, useStore } from '../lib/store';
import { Icon } from './icon';

interface Toast {
  id: number;
  kind: 'error' | 'success';
  message: string;
}

const toasts = createStore<Toast[]>([]);
let nextId = 1;

function dismiss(id: number) {
  toasts.set(toasts.get().filter((t) => t.id !== id));
}

/** Shows a message for a few seconds (errors stay 8 s); the same message is not stacked twice. */
export function toast(message: string, kind: Toast['kind'] = 'error'): void {
  if (toasts.get().some((t) => t.message === message)) return;
  const id = nextId++;
  toasts.set([...toasts.get(), { id, kind, message }]);
  setTimeout(() => dismiss(id), kind === 'error' ? 8000 : 4000);
}

export function Toaster() {
  const list = useStore(toasts);
  return (
    <div
      className="fixed right-4 bottom-4 z-[60] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
      aria-live="polite"
    >
      {list.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          className={`flex items-start gap-3 rounded-lg px-4 py-3 text-sm text-white shadow-lg ${
            t.kind === 'error' ? 'bg-red-600' : 'bg-emerald-600'
          }`}
        >
          <Icon path={t.kind === 'error' ? mdiAlertCircle : mdiCheckCircle} className="mt-0.5 shrink-0" />
          <span className="flex-1">{t.message}</span>
          <button
            type="button"
            aria-label="Закрыть"
            onClick={() => dismiss(t.id)}
            className="opacity-80 hover:opacity-100"
          >
            <Icon path={mdiClose} size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
