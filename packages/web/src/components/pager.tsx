import { pageButtons } from '../lib/paging';
import { Button } from './ui';

/** A table's pages: a button each (the ends and the current one's neighbours when there are many), «Страница X из Y». */
export function Pager({
  page,
  pages,
  onPage,
  testId,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  testId?: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid={testId}>
      <div className="flex flex-wrap gap-1">
        {pageButtons(page, pages).map((p, i) =>
          p === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
            <span key={`gap-${i}`} className="px-1 text-gray-500">
              …
            </span>
          ) : (
            <Button
              key={p}
              small
              color={p === page ? 'info' : 'white'}
              onClick={() => onPage(p)}
              aria-current={p === page ? 'page' : undefined}
            >
              {p}
            </Button>
          ),
        )}
      </div>
      <span className="text-gray-500 text-sm dark:text-slate-400">
        Страница {page} из {pages}
      </span>
    </div>
  );
}
