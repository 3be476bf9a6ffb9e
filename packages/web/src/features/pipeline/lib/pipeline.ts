import { formatPercent, type RegistryPipelineResponse } from '@cena-metra/contract';
import { type Column, numberColumn } from '../../../lib/columns';

type Quarter = RegistryPipelineResponse['quarters'][number];

const ROMAN = ['I', 'II', 'III', 'IV'];

/** «IV кв. 2027» for 2027-Q4. */
export function quarterName(key: string): string {
  const [year, q] = key.split('-Q');
  return `${ROMAN[Number(q) - 1]} кв. ${year}`;
}

export const PIPELINE_COLUMNS: Column<Quarter>[] = [
  {
    key: 'quarter',
    label: 'Квартал',
    type: 'text',
    value: (q) => q.quarter,
    text: (q) => quarterName(q.quarter),
  },
  numberColumn('launches', 'Старты, объектов', 'integer', (q) => q.launches),
  numberColumn('launchedFlats', 'Старты, квартир', 'integer', (q) => q.launchedFlats),
  numberColumn('completions', 'Ввод, объектов', 'integer', (q) => q.completions),
  numberColumn('completingFlats', 'Ввод, квартир', 'integer', (q) => q.completingFlats),
  numberColumn('unsold', 'Не продано к вводу', 'integer', (q) => q.unsold, undefined, {
    header: 'Не продано, квартир',
  }),
  numberColumn(
    'soldShare',
    'Продано',
    'decimal',
    (q) => (q.soldShare === null ? null : q.soldShare * 100),
    formatPercent,
    {
      header: 'Продано, %',
    },
  ),
];

/** The default period: two years back and three ahead, whole years (completions are declared years forward). */
export function defaultPeriod(today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4));
  return { from: `${year - 2}-01-01`, to: `${year + 3}-12-31` };
}
