import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Icon } from './icon';

export function Card({
  children,
  className = '',
  title,
}: {
  children: ReactNode;
  className?: string;
  title?: ReactNode;
}) {
  return (
    <div className={`rounded-2xl bg-white p-6 dark:bg-slate-900/70 ${className}`}>
      {title && <h2 className="mb-4 font-semibold text-lg">{title}</h2>}
      {children}
    </div>
  );
}

const COLORS = {
  info: 'border-blue-600 bg-blue-600 text-white hover:bg-blue-700',
  success: 'border-emerald-600 bg-emerald-600 text-white hover:bg-emerald-700',
  danger: 'border-red-600 bg-red-600 text-white hover:bg-red-700',
  warning: 'border-amber-500 bg-amber-500 text-white hover:bg-amber-600',
  white:
    'border-gray-200 bg-white text-gray-800 hover:bg-gray-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  outline: 'border-gray-300 bg-transparent hover:bg-gray-100 dark:border-slate-600 dark:hover:bg-slate-700',
} as const;

export function Button({
  color = 'white',
  icon,
  rounded = false,
  small = false,
  children,
  className = '',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  color?: keyof typeof COLORS;
  icon?: string;
  rounded?: boolean;
  small?: boolean;
}) {
  return (
    <button
      type="button"
      {...rest}
      className={`inline-flex items-center justify-center gap-2 border transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-400 disabled:cursor-not-allowed disabled:opacity-60 ${
        rounded ? 'rounded-full' : 'rounded-sm'
      } ${small ? 'px-2 py-1 text-sm' : 'px-3 py-2'} ${COLORS[color]} ${className}`}
    >
      {icon && <Icon path={icon} />}
      {children}
    </button>
  );
}

export function Section({ children }: { children: ReactNode }) {
  return <section className="mx-auto p-6 xl:max-w-6xl">{children}</section>;
}

export function SectionTitle({
  icon,
  children,
  right,
}: {
  icon?: string;
  children: ReactNode;
  right?: ReactNode;
}) {
  return (
    <div className="mb-6 flex items-center justify-between gap-3">
      <h1 className="flex items-center gap-2 font-semibold text-2xl">
        {icon && <Icon path={icon} size={24} />}
        {children}
      </h1>
      {right}
    </div>
  );
}

export const inputClass =
  'h-12 w-full rounded-sm border border-gray-300 bg-white px-3 text-gray-900 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-200 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100';

export function Skeleton({ className = '' }: { className?: string }) {
  return <div className={`animate-pulse rounded-lg bg-gray-200 dark:bg-slate-700 ${className}`} />;
}

/** A labelled select of the filter bars (dashboard, price changes). */
export function Select({
  label,
  value,
  onChange,
  options,
  testId,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
  testId: string;
  disabled?: boolean;
}) {
  return (
    <label className="block">
      <span className="mb-1 block font-semibold text-sm">{label}</span>
      <select
        className={inputClass}
        value={value}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
