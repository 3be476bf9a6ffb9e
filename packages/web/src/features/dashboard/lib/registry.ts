import type { RegistryDateValue, RegistryObject, RegistryObjectsResponse } from '@cena-metra/contract';
import { formatPercent } from '@cena-metra/contract';
import { type Column, numberColumn } from '../../../lib/columns';

const ROMAN = ['I', 'II', 'III', 'IV'];

/** A declared date as the registry states it: «IV кв. 2027» for a quarter, else «31.12.2026». */
export function declaredDate(d: RegistryDateValue | null): string {
  if (!d) return '—';
  const [y, m, day] = d.day.split('-');
  if (d.quarter) return `${ROMAN[Math.floor((Number(m) - 1) / 3)]} кв. ${y}`;
  return `${day}.${m}.${y}`;
}

const MONTHS = new Intl.DateTimeFormat('ru-RU', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** «июнь 2025» for 2025-06. */
export function monthName(month: string): string {
  return MONTHS.format(new Date(`${month}-01T00:00:00Z`)).replace(/\s*г\.$/, '');
}

/** Months moved, signed: «+6 мес.», «−3 мес.», «0». */
export function monthsText(months: number): string {
  const shown = Number.isInteger(months)
    ? String(Math.abs(months))
    : Math.abs(months).toFixed(1).replace('.', ',');
  return months > 0 ? `+${shown} мес.` : months < 0 ? `−${shown} мес.` : '0';
}

/** The sum of an object's moves of the declared completion since first seen (+ later). */
export const readyMoved = (o: RegistryObject) =>
  o.shifts.filter((s) => s.field === 'ready').reduce((sum, s) => sum + s.months, 0);

const yesNo = (v: boolean | null) => (v === null ? null : v ? 'да' : 'нет');

export const OBJECT_COLUMNS: Column<RegistryObject>[] = [
  numberColumn('objId', '№ в реестре', 'integer', (o) => o.objId, String),
  {
    key: 'building',
    label: 'Корпус',
    type: 'text',
    value: (o) => o.building ?? o.buildingName,
    text: (o) => (o.building ? `корпус ${o.building}` : (o.buildingName ?? '—')),
  },
  {
    key: 'kind',
    label: 'Вид',
    type: 'text',
    value: (o) => (o.apartments ? 'апартаменты' : 'квартиры'),
    className: (o) => (o.apartments ? 'text-amber-700 dark:text-amber-400' : undefined),
  },
  {
    key: 'ready',
    label: 'Ввод (заявлен)',
    type: 'text',
    value: (o) => declaredDate(o.ready),
    sort: (o) => o.ready?.day ?? null,
  },
  numberColumn(
    'moved',
    'Перенос ввода',
    'decimal',
    (o) => (o.shifts.some((s) => s.field === 'ready') ? readyMoved(o) : null),
    monthsText,
    {
      className: (o) =>
        readyMoved(o) > 0
          ? 'text-red-600 dark:text-red-400'
          : readyMoved(o) < 0
            ? 'text-emerald-600'
            : undefined,
      header: 'Перенос ввода, мес.',
    },
  ),
  {
    key: 'transfer',
    label: 'Ключи',
    type: 'text',
    value: (o) => declaredDate(o.transfer),
    sort: (o) => o.transfer?.day ?? null,
  },
  { key: 'class', label: 'Класс', type: 'text', value: (o) => o.housingClass ?? o.classRaw },
  numberColumn('flats', 'Квартир', 'integer', (o) => o.flats),
  numberColumn(
    'sold',
    'Продано',
    'decimal',
    (o) => (o.soldShare === null ? null : o.soldShare * 100),
    formatPercent,
    {
      header: 'Продано, %',
    },
  ),
  { key: 'escrow', label: 'Эскроу', type: 'text', value: (o) => yesNo(o.escrow) },
  {
    key: 'problem',
    label: 'Проблемный',
    type: 'text',
    value: (o) => yesNo(o.problem),
    className: (o) => (o.problem ? 'font-semibold text-red-600 dark:text-red-400' : undefined),
  },
];

type SalesMonth = RegistryObjectsResponse['sales'][number];

export const SALES_COLUMNS: Column<SalesMonth>[] = [
  { key: 'month', label: 'Месяц', type: 'text', value: (m) => m.month, text: (m) => monthName(m.month) },
  numberColumn('sales', 'Продано по реестру', 'integer', (m) => m.sales, undefined, {
    header: 'Продано по реестру, кв.',
  }),
  numberColumn('corrections', 'Корректировки реестра', 'integer', (m) => m.corrections || null),
  numberColumn(
    'share',
    'Доля продано',
    'decimal',
    (m) => (m.soldShare === null ? null : m.soldShare * 100),
    formatPercent,
    {
      header: 'Доля продано, %',
    },
  ),
];
