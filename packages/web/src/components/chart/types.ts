/** Days without data between two days with data (DESIGN §10.1), first and last day inclusive. */
export interface DateBand {
  from: string;
  to: string;
}

/** One line of a time chart: its legend name, its role (min/avg/max are styled apart) and its points. */
export interface ChartSeries {
  name: string;
  kind: 'min' | 'avg' | 'max' | 'breakdown' | 'count' | 'index';
  color: string;
  /** drawn against the right-hand axis (the index beside prices) */
  axis?: 'right';
  data: [date: string, value: number | null][];
}
