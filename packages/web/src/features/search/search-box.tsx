import { mdiMagnify } from '@mdi/js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSearch } from '../../api/search';
import { Icon } from '../../components/icon';
import { useOutsideClick } from '../../components/use-outside-click';
import { useSession } from '../../lib/session';
import { useDebounced } from '../../lib/use-debounced';
import { type Hit, searchHits } from './search-catalog';

/** The navbar search: Ctrl+K focuses, Escape blurs; arrows and Enter pick a result. */
export function SearchBox() {
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const session = useSession();
  const term = useDebounced(q.trim(), 250);
  const results = useSearch(term, open && session !== null);
  const hits = useMemo(() => (results.data ? searchHits(results.data) : []), [results.data]);
  const close = useCallback(() => setOpen(false), []);
  useOutsideClick(box, open, close);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const go = (hit: Hit) => {
    setOpen(false);
    setQ('');
    input.current?.blur();
    navigate(hit.to);
  };

  return (
    <div ref={box} className="relative w-full max-w-md">
      <Icon path={mdiMagnify} className="absolute top-1/2 left-2 -translate-y-1/2 text-gray-500" />
      <input
        ref={input}
        type="search"
        value={q}
        placeholder="Поиск (ctrl+k)"
        aria-label="Поиск"
        data-testid="search-input"
        className="h-10 w-full border-0 bg-transparent pl-9 focus:outline-none focus:ring-0"
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setQ(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setOpen(false);
            e.currentTarget.blur();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, hits.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter' && hits[active]) go(hits[active]);
        }}
      />
      {open && q.trim() && (
        <ul className="absolute top-11 left-0 z-40 w-full rounded-lg border border-gray-100 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-800">
          {session === null && <li className="px-4 py-2 text-gray-500">Поиск доступен после входа</li>}
          {session !== null && hits.length === 0 && (
            <li className="px-4 py-2 text-gray-500">
              {results.isFetching || term !== q.trim() ? 'Ищу…' : 'Ничего не найдено'}
            </li>
          )}
          {hits.map((hit, i) => (
            <li key={hit.key}>
              {hit.kind !== hits[i - 1]?.kind && (
                <div className="px-4 pt-2 pb-1 font-semibold text-gray-400 text-xs uppercase">{hit.kind}</div>
              )}
              <button
                type="button"
                className={`flex w-full justify-between gap-3 px-4 py-2 text-left ${i === active ? 'bg-gray-100 dark:bg-slate-700' : ''}`}
                aria-current={i === active}
                onMouseEnter={() => setActive(i)}
                onClick={() => go(hit)}
              >
                <span className="truncate">{hit.label}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
