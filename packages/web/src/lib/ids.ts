/** A positive whole number from a page address (≤ 9 digits), or null: `/summary/abc` is not a page. */
export function positiveId(value: string | null | undefined): number | null {
  return value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}
