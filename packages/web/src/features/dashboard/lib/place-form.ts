import {
  PLACE_LIMITS,
  type Place,
  type PlaceEdit,
  type ProjectPlace,
  STATION_MODE_LABELS,
  type Station,
  type StationMode,
} from '@cena-metra/contract';

/** The place form's fields as typed: texts, the coordinates as two texts, the stations a line each. */
export interface PlaceFormState {
  region: string;
  city: string;
  district: string;
  address: string;
  latitude: string;
  longitude: string;
  /** «Бунинская аллея, 12, пешком» a line each */
  stations: string;
}

const MODE_WORDS: Record<string, StationMode> = {
  пешком: 'foot',
  пешк: 'foot',
  транспортом: 'transport',
  транспорт: 'transport',
  авто: 'transport',
};

/** A station as its form line: «Бунинская аллея, 12, пешком». */
export function stationLine(s: Station): string {
  return [s.name, s.minutes === null ? '' : String(s.minutes), s.mode ? STATION_MODE_LABELS[s.mode] : '']
    .filter(Boolean)
    .join(', ');
}

/** The form filled with the place shown. */
export function placeFormOf(place: Place): PlaceFormState {
  return {
    region: place.region ?? '',
    city: place.city ?? '',
    district: place.district ?? '',
    address: place.address ?? '',
    latitude: place.latitude === null ? '' : String(place.latitude),
    longitude: place.longitude === null ? '' : String(place.longitude),
    stations: place.stations.map(stationLine).join('\n'),
  };
}

const decimal = (text: string) => Number(text.trim().replace(',', '.'));

/**
 * The hand edit the form asks for: each field changed from what is shown is sent; a field emptied takes the
 * hand value back (the sources' value shows again). Errors name the field in Russian, as the server's do.
 */
export function placeEditOf(
  current: ProjectPlace,
  form: PlaceFormState,
): { edit: PlaceEdit; errors: string[] } {
  const errors: string[] = [];
  const edit: PlaceEdit = {};
  const shown = placeFormOf(current.place);
  const texts: ['region' | 'city' | 'district' | 'address', string, number][] = [
    ['region', 'Регион', PLACE_LIMITS.maxText],
    ['city', 'Город', PLACE_LIMITS.maxText],
    ['district', 'Район', PLACE_LIMITS.maxText],
    ['address', 'Адрес', PLACE_LIMITS.maxAddress],
  ];
  for (const [field, label, max] of texts) {
    const value = form[field].trim();
    if (value === shown[field].trim()) continue;
    if (value.length > max) errors.push(`${label}: не длиннее ${max} символов`);
    else edit[field] = value || null;
  }
  if (form.latitude.trim() !== shown.latitude || form.longitude.trim() !== shown.longitude) {
    if (!form.latitude.trim() && !form.longitude.trim()) edit.coordinates = null;
    else {
      const latitude = decimal(form.latitude);
      const longitude = decimal(form.longitude);
      const before = errors.length;
      if (
        !form.latitude.trim() ||
        !Number.isFinite(latitude) ||
        Math.abs(latitude) > PLACE_LIMITS.maxLatitude
      )
        errors.push('Широта: число от −90 до 90');
      if (
        !form.longitude.trim() ||
        !Number.isFinite(longitude) ||
        Math.abs(longitude) > PLACE_LIMITS.maxLongitude
      )
        errors.push('Долгота: число от −180 до 180');
      if (errors.length === before) edit.coordinates = { latitude, longitude };
    }
  }
  if (form.stations.trim() !== shown.stations.trim()) {
    const lines = form.stations
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length === 0) edit.stations = null;
    else if (lines.length > PLACE_LIMITS.maxStations)
      errors.push(`Станции: не больше ${PLACE_LIMITS.maxStations}`);
    else {
      const stations: NonNullable<PlaceEdit['stations']> = [];
      lines.forEach((line, i) => {
        const [name, ...rest] = line.split(',').map((p) => p.trim());
        let minutes: number | null = null;
        let mode: StationMode | null = null;
        for (const part of rest) {
          if (!part) continue;
          const word = part.toLowerCase().replace(/\.$/, '');
          if (MODE_WORDS[word]) mode = MODE_WORDS[word];
          else {
            const n = Number(word.replace(/\s*мин.*$/, ''));
            if (!Number.isInteger(n) || n < 0 || n > PLACE_LIMITS.maxMinutes)
              errors.push(
                `Станции, строка ${i + 1}: минуты — целое число от 0 до ${PLACE_LIMITS.maxMinutes}`,
              );
            else minutes = n;
          }
        }
        if (!name) errors.push(`Станции, строка ${i + 1}: укажите название`);
        else stations.push({ name, minutes, mode, kind: 'metro' });
      });
      edit.stations = stations;
    }
  }
  return { edit, errors };
}
