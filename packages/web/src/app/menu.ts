import {
  mdiAccountCircle,
  mdiAccountGroup,
  mdiAlertCircle,
  mdiApi,
  mdiChartTimelineVariant,
  mdiClipboardTextClock,
  mdiCloudDownload,
  mdiCogOutline,
  mdiCrane,
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
import type { Need } from '../lib/access';

export interface AsideItem {
  label: string;
  icon: string;
  /** shown only to roles that may use it (DESIGN §11.5) */
  need?: Need;
  to?: string;
  href?: string;
  children?: { label: string; to?: string; href?: string }[];
}

/** Side menu entries of the spec (§2), plus the sample dropdown with two external links (DESIGN §6). */
export const ASIDE_MENU: AsideItem[] = [
  { to: '/', icon: mdiMonitor, label: 'Анализ' },
  { to: '/tables', icon: mdiTable, label: 'Сводка' },
  { to: '/market', icon: mdiStorefrontOutline, label: 'Рынок' },
  { to: '/pipeline', icon: mdiCrane, label: 'Старты и ввод' },
  { to: '/compare', icon: mdiScaleBalance, label: 'Сравнение' },
  { to: '/chess', icon: mdiGrid, label: 'Шахматка' },
  { to: '/watchlist', icon: mdiHeartOutline, label: 'Избранное', need: 'analyst' },
  { to: '/summary', icon: mdiSend, label: 'Телеграм' },
  { to: '/sources', icon: mdiCloudDownload, label: 'Источники', need: 'admin' },
  { to: '/users', icon: mdiAccountGroup, label: 'Пользователи', need: 'admin' },
  { to: '/audit', icon: mdiClipboardTextClock, label: 'Журнал', need: 'admin' },
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
