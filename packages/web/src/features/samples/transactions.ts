import { mdiArrowDownBold, mdiArrowUpBold, mdiCashMultiple, mdiReceiptText } from '@mdi/js';

/** One record of `data-sources/history.json` (the template's transactions). */
export interface Transaction {
  amount: string;
  account: string;
  name: string;
  date: string;
  type: string;
  business: string;
}

export interface TransactionView extends Transaction {
  label: string;
  icon: string;
  /** Tailwind text colour of the icon and the amount. */
  tone: string;
  /** '+' for money in, '−' for money out. */
  sign: '+' | '−';
}

const TYPES: Record<string, Omit<TransactionView, keyof Transaction>> = {
  deposit: { label: 'Поступление', icon: mdiArrowDownBold, tone: 'text-emerald-600', sign: '+' },
  payment: { label: 'Оплата', icon: mdiCashMultiple, tone: 'text-red-600', sign: '−' },
  invoice: { label: 'Счёт', icon: mdiReceiptText, tone: 'text-blue-600', sign: '+' },
  withdrawal: { label: 'Списание', icon: mdiArrowUpBold, tone: 'text-amber-600', sign: '−' },
};

/**
 * Label, icon and colour of each transaction by its type; records of an unknown type are shown as
 * «Операция» rather than dropped, and the newest (by the dd.mm.yyyy date) come first.
 */
export function transactionViews(rows: readonly Transaction[]): TransactionView[] {
  const key = (d: string) => d.split('.').reverse().join('');
  return rows
    .map((t) => ({
      ...t,
      ...(TYPES[t.type] ?? {
        label: 'Операция',
        icon: mdiCashMultiple,
        tone: 'text-gray-500',
        sign: '+' as const,
      }),
    }))
    .sort((a, b) => key(b.date).localeCompare(key(a.date)));
}
