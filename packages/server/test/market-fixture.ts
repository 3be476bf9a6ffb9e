/** A flat of an ingest body as the API takes it (building 1, floor 3, no finish). */
export const flat = (id: string, rooms: number, area: number, price: number) => ({
  id,
  building: '1',
  rooms,
  area,
  price,
  floor: 3,
  finish: 'без отделки',
});

/** A snapshot of an ingest body. */
export const snap = (date: string, developer: string, project: string, flats: unknown[]) => ({
  date,
  developer,
  project,
  flats,
});
