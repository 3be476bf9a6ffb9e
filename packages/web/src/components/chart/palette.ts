/** 10 colours cycling over breakdown series (spec §9); min/avg/max have their own. */
export const PALETTE = [
  '#2563eb',
  '#f97316',
  '#16a34a',
  '#db2777',
  '#9333ea',
  '#0891b2',
  '#ca8a04',
  '#dc2626',
  '#4f46e5',
  '#65a30d',
];
