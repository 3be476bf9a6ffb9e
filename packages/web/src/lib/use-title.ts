import { useEffect } from 'react';

export const PRODUCT = 'Цена метра';

/** Document title `{title} — Цена метра`, or the product alone. */
export function documentTitle(title?: string): string {
  return title ? `${title} — ${PRODUCT}` : PRODUCT;
}

export function useTitle(title?: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
