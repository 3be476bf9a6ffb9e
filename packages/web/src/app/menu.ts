import {
  mdiAccountCircle,
  mdiAlertCircle,
  mdiApi,
  mdiChartTimelineVariant,
  mdiCloudDownload,
  mdiCogOutline,
  mdiEmail,
  mdiGrid,
  mdiHeartOutline,
  mdiLock,
  mdiMonitor,
  mdiPalette,
  mdiResponsive,
  mdiScaleBalance,
  mdiSend,
  mdiSquareEditOutline,
  mdiStorefrontOutline,
  mdiTable,
  mdiViewList,
} from '@mdi/js';

export interface AsideItem {
  label: string;
  icon: string;
  to?: string;
  href?: string;
  children?: { label: string; to?: string; href?: string }[];
}

/** Side menu entries of the spec (§2), plus the sample dropdown with two external links (DESIGN §6). */
export const ASIDE_MENU: AsideItem[] = [
  { to: '/', icon: mdiMonitor, label: 'Анализ' },
  { to: '/tables', icon: mdiTable, label: 'Сводка' },
  { to: '/market', icon: mdiStorefrontOutline, label: 'Рынок' },
  { to: '/compare', icon: mdiScaleBalance, label: 'Сравнение' },
  { to: '/chess', icon: mdiGrid, label: 'Шахматка' },
  { to: '/watchlist', icon: mdiHeartOutline, label: 'Избранное' },
  { to: '/summary', icon: mdiSend, label: 'Телеграм' },
  { to: '/sources', icon: mdiCloudDownload, label: 'Источники' },
  { to: '/forms', icon: mdiSquareEditOutline, label: 'Формы' },
  { to: '/ui', icon: mdiPalette, label: 'Интерфейс' },
  { to: '/responsive', icon: mdiResponsive, label: 'Адаптивность' },
  { to: '/profile', icon: mdiAccountCircle, label: 'Профиль' },
  { to: '/login', icon: mdiLock, label: 'Вход' },
  { to: '/error', icon: mdiAlertCircle, label: 'Ошибка' },
  {
    label: 'Ещё',
    icon: mdiViewList,
    children: [
      { label: 'Пункт первый' },
      { label: 'Пункт второй' },
      { label: 'Документация API', href: '/api/docs' },
      { label: 'Телеграм-канал', href: 'https://t.me/cena_metra' },
    ],
  },
];

export const USER_MENU = [
  { to: '/profile', icon: mdiAccountCircle, label: 'Мой профиль' },
  { to: '/profile', icon: mdiCogOutline, label: 'Настройки' },
  { to: '/profile', icon: mdiEmail, label: 'Сообщения' },
] as const;

export const SAMPLE_MENU = [
  { label: 'Обзор трендов', to: '/', icon: mdiChartTimelineVariant },
  { label: 'Документация API', href: '/api/docs', icon: mdiApi },
] as const;
