import { mdiCheck, mdiUpload } from '@mdi/js';
import { type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { Icon } from './icon';

type BoxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> & { children: ReactNode };

/** The template's custom checkbox: a rounded box that fills blue with a white tick. */
export function Checkbox({ children, ...rest }: BoxProps) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2">
      <span className="relative inline-flex h-5 w-5">
        <input
          type="checkbox"
          {...rest}
          className="peer h-5 w-5 cursor-pointer appearance-none rounded-sm border border-gray-400 bg-white checked:border-blue-600 checked:bg-blue-600 focus-visible:ring-2 focus-visible:ring-blue-400 dark:border-slate-500 dark:bg-slate-800 dark:checked:bg-blue-600"
        />
        <Icon
          path={mdiCheck}
          size={16}
          className="pointer-events-none invisible absolute top-0.5 left-0.5 text-white peer-checked:visible"
        />
      </span>
      {children}
    </label>
  );
}

/** The template's custom radio: a ring that thickens blue when chosen. */
export function Radio({ children, ...rest }: BoxProps) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2">
      <input
        type="radio"
        {...rest}
        className="h-5 w-5 cursor-pointer appearance-none rounded-full border border-gray-400 bg-white checked:border-[6px] checked:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-400 dark:border-slate-500 dark:bg-slate-800"
      />
      {children}
    </label>
  );
}

/** The template's switch: a checkbox drawn as a sliding pill (`role=switch`). */
export function Switch({ children, ...rest }: BoxProps) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2">
      <span className="relative inline-flex h-6 w-11">
        <input
          type="checkbox"
          // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox reports its own checked state
          role="switch"
          {...rest}
          className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-gray-300 transition-colors checked:bg-blue-600 focus-visible:ring-2 focus-visible:ring-blue-400 dark:bg-slate-600"
        />
        <span className="pointer-events-none absolute top-1 left-1 h-4 w-4 rounded-full bg-white transition-transform peer-checked:translate-x-5" />
      </span>
      {children}
    </label>
  );
}

/** The template's file picker: a button with the chosen file's name (or «Файл не выбран») beside it. */
export function FilePicker({ name, accept }: { name: string; accept?: string }) {
  const [file, setFile] = useState<string | null>(null);
  return (
    <label className="inline-flex cursor-pointer items-center gap-3">
      <span className="inline-flex items-center gap-2 rounded-sm border border-blue-600 bg-blue-600 px-3 py-2 text-white hover:bg-blue-700">
        <Icon path={mdiUpload} />
        Выбрать файл
      </span>
      <input
        type="file"
        name={name}
        accept={accept}
        className="sr-only"
        onChange={(e) => setFile(e.currentTarget.files?.[0]?.name ?? null)}
      />
      <span className="text-gray-500 text-sm dark:text-slate-400" data-testid={`file-${name}`}>
        {file ?? 'Файл не выбран'}
      </span>
    </label>
  );
}
