import { EMPTY_PLACE, type ProjectPlace } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { placeEditOf, placeFormOf } from './place-form';

const current: ProjectPlace = {
  projectId: 3,
  place: {
    ...EMPTY_PLACE,
    region: 'Москва',
    city: 'Москва',
    district: 'Южное Бутово',
    latitude: 55.54,
    longitude: 37.51,
    stations: [{ name: 'Бунинская аллея', minutes: 12, mode: 'foot', kind: 'metro' }],
  },
  edited: [],
  sources: EMPTY_PLACE,
};

describe('the place form', () => {
  it('sends only what changed; an emptied field takes the hand value back', () => {
    const form = placeFormOf(current.place);
    expect(form.stations).toBe('Бунинская аллея, 12, пешком');
    expect(placeEditOf(current, form)).toEqual({ edit: {}, errors: [] });
    const changed = placeEditOf(current, {
      ...form,
      district: 'Бутово ',
      city: '',
      latitude: '55,55',
      stations: 'Бунинская аллея, 10 мин, пешком\nУлица Горчакова, 15, транспортом',
    });
    expect(changed.errors).toEqual([]);
    expect(changed.edit).toEqual({
      district: 'Бутово',
      city: null,
      coordinates: { latitude: 55.55, longitude: 37.51 },
      stations: [
        { name: 'Бунинская аллея', minutes: 10, mode: 'foot', kind: 'metro' },
        { name: 'Улица Горчакова', minutes: 15, mode: 'transport', kind: 'metro' },
      ],
    });
    expect(placeEditOf(current, { ...form, latitude: '', longitude: '', stations: '' }).edit).toEqual({
      coordinates: null,
      stations: null,
    });
  });

  it('refuses bad values with the field named, in Russian', () => {
    const form = placeFormOf(current.place);
    const bad = placeEditOf(current, {
      ...form,
      latitude: '95',
      longitude: 'восток',
      stations: 'А, -3\n, 5\nБ\nВ',
      address: 'x'.repeat(301),
    });
    expect(bad.errors).toEqual([
      'Адрес: не длиннее 300 символов',
      'Широта: число от −90 до 90',
      'Долгота: число от −180 до 180',
      'Станции: не больше 3',
    ]);
    expect(placeEditOf(current, { ...form, stations: 'А, -3\n, 5' }).errors).toEqual([
      'Станции, строка 1: минуты — целое число от 0 до 300',
      'Станции, строка 2: укажите название',
    ]);
  });
});
