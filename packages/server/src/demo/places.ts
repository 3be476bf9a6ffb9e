/**
 * Where the demo's projects are (DESIGN §11.3): Moscow, Saint Petersburg and Yekaterinburg, real districts
 * and stations, coordinates to about a hundred metres. One project has no coordinates (the market lists it
 * under the map), as a feed of the 2024-12 format without `<latitude>` would leave it.
 */
type DemoPlace = {
  region: string;
  city: string;
  district: string;
  address: string;
  latitude?: number;
  longitude?: number;
  stations: { name: string; minutes: number; mode: 'foot' | 'transport'; kind?: 'metro' | 'rail' }[];
};

const MOSCOW = { region: 'Москва', city: 'Москва' };
const SPB = { region: 'Санкт-Петербург', city: 'Санкт-Петербург' };
const EKB = { region: 'Свердловская область', city: 'Екатеринбург' };
const foot = (name: string, minutes: number, kind: 'metro' | 'rail' = 'metro') => ({
  name,
  minutes,
  mode: 'foot' as const,
  kind,
});
const bus = (name: string, minutes: number) => ({
  name,
  minutes,
  mode: 'transport' as const,
  kind: 'metro' as const,
});

const PLACES: Record<string, DemoPlace> = {
  'Северный квартал': {
    ...MOSCOW,
    district: 'Северный',
    address: 'Дмитровское шоссе, 163',
    latitude: 55.9301,
    longitude: 37.5603,
    stations: [bus('Алтуфьево', 15)],
  },
  'Речной парк': {
    ...MOSCOW,
    district: 'Левобережный',
    address: 'Ленинградское шоссе, 57',
    latitude: 55.8618,
    longitude: 37.4702,
    stations: [foot('Речной вокзал', 10), foot('Беломорская', 14)],
  },
  'Липовая роща': {
    ...MOSCOW,
    district: 'Южное Бутово',
    address: 'ул. Поляны, 54',
    latitude: 55.5381,
    longitude: 37.5122,
    stations: [foot('Бунинская аллея', 12)],
  },
  'Сити-Юг': {
    ...MOSCOW,
    district: 'Нагатинский Затон',
    address: 'Кленовый бульвар, 7',
    latitude: 55.6812,
    longitude: 37.6761,
    stations: [foot('Кленовый бульвар', 7)],
  },
  'Зелёный берег': {
    ...MOSCOW,
    district: 'Хорошёво-Мнёвники',
    address: 'ул. Нижние Мнёвники, 10',
    latitude: 55.7631,
    longitude: 37.4682,
    stations: [foot('Мнёвники', 9), foot('Народное Ополчение', 15)],
  },
  'Невский простор': {
    ...SPB,
    district: 'Невский район',
    address: 'Октябрьская наб., 40',
    latitude: 59.8773,
    longitude: 30.4402,
    stations: [foot('Ломоносовская', 10)],
  },
  'Лесная гавань': {
    ...SPB,
    district: 'Выборгский район',
    address: 'пр. Энгельса, 161',
    latitude: 60.0671,
    longitude: 30.3401,
    stations: [foot('Парнас', 15)],
  },
  Береговой: {
    ...SPB,
    district: 'Приморский район',
    address: 'ул. Оптиков, 50',
    latitude: 59.9882,
    longitude: 30.2083,
    stations: [foot('Беговая', 8)],
  },
  'Символ города': {
    ...MOSCOW,
    district: 'Лефортово',
    address: 'ш. Энтузиастов, 3',
    latitude: 55.7521,
    longitude: 37.7132,
    stations: [foot('Авиамоторная', 12)],
  },
  'Первый дом': {
    ...MOSCOW,
    district: 'Раменки',
    address: 'Мичуринский пр., 31',
    latitude: 55.6962,
    longitude: 37.5004,
    stations: [foot('Раменки', 6)],
  },
  'Огни залива': {
    ...SPB,
    district: 'Красносельский район',
    address: 'ул. Маршала Захарова, 21',
    latitude: 59.8433,
    longitude: 30.1502,
    stations: [bus('Ленинский проспект', 20)],
  },
  Театральный: {
    ...SPB,
    district: 'Адмиралтейский район',
    address: 'наб. Обводного канала, 118',
    latitude: 59.9081,
    longitude: 30.3003,
    stations: [foot('Балтийская', 9)],
  },
  'Солнечный бульвар': {
    ...EKB,
    district: 'Чкаловский район',
    address: 'ул. Дорожная, 24',
    latitude: 56.8002,
    longitude: 60.6301,
    stations: [bus('Ботаническая', 15)],
  },
  'Новые сады': {
    ...EKB,
    district: 'Академический',
    address: 'ул. Вильгельма де Геннина, 45',
    latitude: 56.7903,
    longitude: 60.5204,
    stations: [],
  },
  'Парк легенд': {
    ...MOSCOW,
    district: 'Даниловский',
    address: 'ул. Автозаводская, 23',
    latitude: 55.6984,
    longitude: 37.6481,
    stations: [foot('ЗИЛ', 5, 'rail'), foot('Тульская', 15)],
  },
  'Тихий двор': {
    ...MOSCOW,
    district: 'Хамовники',
    address: 'Комсомольский пр., 42',
    latitude: 55.7273,
    longitude: 37.5802,
    stations: [foot('Фрунзенская', 10)],
  },
  Высота: {
    ...MOSCOW,
    district: 'Савёловский',
    address: 'ул. Новослободская, 67',
    latitude: 55.7943,
    longitude: 37.5871,
    stations: [foot('Савёловская', 7)],
  },
  'Кварталы 21/19': {
    ...MOSCOW,
    district: 'Внуково',
    address: 'Боровское шоссе, 2',
    latitude: 55.6322,
    longitude: 37.3303,
    stations: [bus('Рассказовка', 10)],
  },
  'Сердце столицы': {
    ...MOSCOW,
    district: 'Хорошёвский',
    address: 'Шелепихинская наб., 34',
    latitude: 55.7572,
    longitude: 37.5253,
    stations: [foot('Шелепиха', 8)],
  },
  'Измайловские холмы': {
    ...MOSCOW,
    district: 'Измайлово',
    address: 'Измайловский пр., 10',
    latitude: 55.7871,
    longitude: 37.7812,
    stations: [foot('Измайловская', 10)],
  },
  Озёрный: {
    ...EKB,
    district: 'Верх-Исетский район',
    address: 'ул. Татищева, 20',
    stations: [bus('Площадь 1905 года', 15)],
  },
  Метрополия: {
    ...EKB,
    district: 'Ленинский район',
    address: 'ул. Шейнкмана, 90',
    latitude: 56.8262,
    longitude: 60.6041,
    stations: [foot('Геологическая', 7)],
  },
  'Остров мечты': {
    ...MOSCOW,
    district: 'Нагатинский Затон',
    address: 'пр. Андропова, 1',
    latitude: 55.6903,
    longitude: 37.6652,
    stations: [foot('Технопарк', 10)],
  },
  'Светлый мир': {
    ...MOSCOW,
    district: 'Очаково-Матвеевское',
    address: 'ул. Лобачевского, 118',
    latitude: 55.6842,
    longitude: 37.4503,
    stations: [foot('Очаково', 8, 'rail')],
  },
  Династия: {
    ...SPB,
    district: 'Московский район',
    address: 'Московский пр., 183',
    latitude: 59.8521,
    longitude: 30.3212,
    stations: [foot('Московская', 10)],
  },
  'Летний сад': {
    ...SPB,
    district: 'Центральный район',
    address: 'ул. Фурштатская, 40',
    latitude: 59.9451,
    longitude: 30.3603,
    stations: [foot('Чернышевская', 8)],
  },
  Академический: {
    ...MOSCOW,
    district: 'Академический',
    address: 'ул. Дмитрия Ульянова, 24',
    latitude: 55.6873,
    longitude: 37.5731,
    stations: [foot('Академическая', 6)],
  },
};

/** A demo project's place as a list's `location` (§11.3), or undefined for a name without one. */
export function demoLocation(project: string): Record<string, unknown> | undefined {
  return PLACES[project];
}
