import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useOutsideClick } from './use-outside-click';

/** A navbar cell with a panel that closes on any click outside it (and on choosing an item). */
export function Dropdown({
  trigger,
  children,
  label,
  buttonClassName = 'flex h-14 items-center gap-2 px-3 hover:text-blue-500',
}: {
  trigger: ReactNode;
  children: ReactNode;
  label: string;
  buttonClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(ref, open, close);
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-label={label}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className={buttonClassName}
      >
        {trigger}
      </button>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: choosing an item (a link or a button) closes the panel
        // biome-ignore lint/a11y/useKeyWithClickEvents: keys reach the items themselves
        <div
          onClick={close}
          className="absolute right-0 z-40 mt-0 min-w-52 rounded-lg border border-gray-100 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-800"
        >
          {children}
        </div>
      )}
    </div>
  );
}
