import {
  mdiBackburger,
  mdiClose,
  mdiDotsVertical,
  mdiForwardburger,
  mdiLogin,
  mdiLogout,
  mdiMenu,
  mdiThemeLightDark,
} from '@mdi/js';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useMe } from '../api/session';
import { Dropdown } from '../components/dropdown';
import { Icon } from '../components/icon';
import { SearchBox } from '../features/search/search-box';
import { AlertsBell } from '../features/watch/alerts-bell';
import { may } from '../lib/access';
import { setDarkMode, useDarkMode } from '../lib/dark-mode';
import { logout } from '../lib/logout';
import { useSession } from '../lib/session';
import { PRODUCT } from '../lib/use-title';
import { ASIDE_MENU, SAMPLE_MENU, USER_MENU } from './menu';

/** The aside's entries; the coloured row at the bottom signs out (or, for a guest, leads to /login). */
function AsideMenu({ onLogout, signedIn }: { onLogout: () => void; signedIn: boolean }) {
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const role = useSession()?.role;
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 shrink-0 items-center bg-gray-900 px-6 font-black text-white tracking-wide dark:bg-slate-950 lg:rounded-t-2xl">
        {PRODUCT}
      </div>
      <nav className="flex-1 overflow-y-auto">
        <ul>
          {ASIDE_MENU.filter((item) => !item.need || may(role, item.need)).map((item) =>
            item.children ? (
              <li key={item.label}>
                <button
                  type="button"
                  className="flex w-full items-center py-3 text-gray-300 hover:text-white"
                  aria-expanded={openGroup === item.label}
                  onClick={() => setOpenGroup((g) => (g === item.label ? null : item.label))}
                >
                  <span className="flex w-16 justify-center">
                    <Icon path={item.icon} />
                  </span>
                  <span className="truncate">{item.label}</span>
                </button>
                {openGroup === item.label && (
                  <ul className="bg-gray-700/50 dark:bg-slate-800/50">
                    {item.children.map((child) => (
                      <li key={child.label}>
                        {child.href ? (
                          <a
                            href={child.href}
                            target="_blank"
                            rel="noreferrer"
                            className="block py-2 pl-16 text-gray-300 text-sm hover:text-white"
                          >
                            {child.label}
                          </a>
                        ) : (
                          <span className="block py-2 pl-16 text-gray-400 text-sm">{child.label}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ) : (
              <li key={item.label}>
                <NavLink
                  to={item.to!}
                  end
                  className={({ isActive }) =>
                    `flex items-center py-3 ${isActive ? 'font-bold text-white' : 'text-gray-300 hover:text-white'}`
                  }
                >
                  <span className="flex w-16 justify-center">
                    <Icon path={item.icon} />
                  </span>
                  <span className="truncate">{item.label}</span>
                </NavLink>
              </li>
            ),
          )}
        </ul>
      </nav>
      {signedIn ? (
        <button
          type="button"
          onClick={onLogout}
          className="flex shrink-0 items-center py-3 text-red-400 hover:text-red-300 lg:rounded-b-2xl"
        >
          <span className="flex w-16 justify-center">
            <Icon path={mdiLogout} />
          </span>
          Выйти
        </button>
      ) : (
        <Link
          to="/login"
          className="flex shrink-0 items-center py-3 text-emerald-400 hover:text-emerald-300 lg:rounded-b-2xl"
        >
          <span className="flex w-16 justify-center">
            <Icon path={mdiLogin} />
          </span>
          Войти
        </Link>
      )}
    </div>
  );
}

/** The signed-in frame: aside, navbar, content, footer (template-notes.md). */
export function Layout({ children }: { children: ReactNode }) {
  const [mobileAside, setMobileAside] = useState(false);
  const [lgAside, setLgAside] = useState(false);
  const [navMenu, setNavMenu] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const dark = useDarkMode();
  // the role as the server says it now (an admin may have changed it)
  useMe();

  // both aside toggles (and the mobile navbar panel) close on every navigation
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location change is the trigger
  useEffect(() => {
    setMobileAside(false);
    setLgAside(false);
    setNavMenu(false);
  }, [location.pathname, location.search]);

  const onLogout = () => void logout().then(() => navigate('/login'));

  return (
    <div
      className={`min-h-screen pt-14 transition-[margin,padding] xl:pl-60 ${mobileAside ? 'ml-60 lg:ml-0' : ''}`}
    >
      <header
        className={`fixed inset-x-0 top-0 z-30 flex h-14 items-center bg-gray-50 transition-[margin,padding] xl:pl-60 dark:bg-slate-800 ${
          mobileAside ? 'ml-60 lg:ml-0' : ''
        }`}
      >
        <button
          type="button"
          aria-label="Меню"
          className="flex h-14 w-14 items-center justify-center lg:hidden"
          onClick={() => setMobileAside((v) => !v)}
        >
          <Icon path={mobileAside ? mdiBackburger : mdiForwardburger} size={24} />
        </button>
        <button
          type="button"
          aria-label="Меню"
          className="hidden h-14 w-14 items-center justify-center lg:flex xl:hidden"
          onClick={() => setLgAside(true)}
        >
          <Icon path={mdiMenu} size={24} />
        </button>
        <div className="flex flex-1 items-center px-3">
          <SearchBox />
        </div>
        <button
          type="button"
          aria-label="Ещё"
          className="flex h-14 w-14 items-center justify-center lg:hidden"
          onClick={() => setNavMenu((v) => !v)}
        >
          <Icon path={navMenu ? mdiClose : mdiDotsVertical} size={24} />
        </button>
        <nav
          className={`${navMenu ? 'flex' : 'hidden'} absolute top-14 left-0 w-full flex-col bg-gray-50 shadow-lg lg:static lg:flex lg:w-auto lg:flex-row lg:items-center lg:shadow-none dark:bg-slate-800`}
        >
          <Dropdown label="Быстрые ссылки" trigger={<span>Ссылки</span>}>
            {SAMPLE_MENU.map((item) =>
              'to' in item ? (
                <Link
                  key={item.label}
                  to={item.to}
                  className="flex items-center gap-2 px-4 py-2 hover:bg-gray-100 dark:hover:bg-slate-700"
                >
                  <Icon path={item.icon} size={16} />
                  {item.label}
                </Link>
              ) : (
                <a
                  key={item.label}
                  href={item.href}
                  target="_blank"
                  rel="noreferrer"
                  className="flex items-center gap-2 px-4 py-2 hover:bg-gray-100 dark:hover:bg-slate-700"
                >
                  <Icon path={item.icon} size={16} />
                  {item.label}
                </a>
              ),
            )}
          </Dropdown>
          {may(session?.role, 'analyst') && <AlertsBell />}
          {session ? (
            <Dropdown
              label="Меню пользователя"
              trigger={
                <>
                  <span className="flex h-8 w-8 items-center justify-center rounded-full bg-blue-600 font-bold text-white uppercase">
                    {session?.username.slice(0, 1) ?? '?'}
                  </span>
                  <span data-testid="current-user">{session?.username}</span>
                </>
              }
            >
              {USER_MENU.map((item) => (
                <Link
                  key={item.label}
                  to={item.to}
                  className="flex items-center gap-2 px-4 py-2 hover:bg-gray-100 dark:hover:bg-slate-700"
                >
                  <Icon path={item.icon} size={16} />
                  {item.label}
                </Link>
              ))}
              <hr className="my-1 border-gray-100 dark:border-slate-700" />
              <button
                type="button"
                onClick={onLogout}
                className="flex w-full items-center gap-2 px-4 py-2 text-left hover:bg-gray-100 dark:hover:bg-slate-700"
              >
                <Icon path={mdiLogout} size={16} />
                Выйти
              </button>
            </Dropdown>
          ) : (
            <Link
              to="/login"
              data-testid="sign-in"
              className="flex h-14 items-center gap-2 px-3 hover:text-blue-500"
            >
              <Icon path={mdiLogin} />
              Войти
            </Link>
          )}
          <button
            type="button"
            aria-label="Светлая или тёмная тема"
            aria-pressed={dark}
            data-testid="dark-toggle"
            className="flex h-14 items-center gap-2 px-3 hover:text-blue-500"
            onClick={() => setDarkMode(!dark)}
          >
            <Icon path={mdiThemeLightDark} />
            <span className="lg:hidden">Тема</span>
          </button>
          {session && (
            <button
              type="button"
              aria-label="Выйти"
              data-testid="logout"
              className="flex h-14 items-center gap-2 px-3 hover:text-blue-500"
              onClick={onLogout}
            >
              <Icon path={mdiLogout} />
              <span className="lg:hidden">Выйти</span>
            </button>
          )}
        </nav>
      </header>
      <aside
        className={`fixed top-0 z-40 h-screen w-60 bg-gray-800 transition-[left] lg:top-2 lg:bottom-2 lg:h-auto lg:rounded-2xl dark:bg-slate-900 ${
          mobileAside ? 'left-0' : '-left-60'
        } ${lgAside ? 'lg:left-2' : 'lg:-left-64'} xl:left-2`}
      >
        <AsideMenu onLogout={onLogout} signedIn={session !== null} />
      </aside>
      {lgAside && (
        <div
          className="fixed inset-0 z-30 hidden bg-gray-900/60 lg:block xl:hidden"
          onClick={() => setLgAside(false)}
          aria-hidden="true"
        />
      )}
      <main>{children}</main>
      <footer className="mx-auto flex flex-col items-center justify-between gap-2 px-6 py-2 text-sm md:flex-row xl:max-w-6xl">
        <div>
          <b>
            ©{new Date().getFullYear()}, {PRODUCT}
          </b>{' '}
          ·{' '}
          <Link to="/summary" className="text-blue-600 dark:text-blue-400">
            Ежедневная сводка
          </Link>
        </div>
        <img src="/favicon.svg" alt="" width={24} height={24} />
      </footer>
    </div>
  );
}
