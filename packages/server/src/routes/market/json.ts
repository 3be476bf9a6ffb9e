import type { MarketResponse, MarketRow } from '@cena-metra/contract';

/**
 * The market's ranking as the response's bytes, written row by row into one buffer: the whole country's
 * body (~1.5 MB, two bytes a character as one JS string with Cyrillic names) would be made at once in the
 * old generation on every request, and collected there; each row's text here is small and short-lived.
 */
export function marketBody(data: MarketResponse): Buffer {
  let out = Buffer.allocUnsafe(64 * 1024 + 320 * (data.projects.length + data.developers.length));
  let at = 0;
  const write = (s: string) => {
    // a character is at most 3 bytes in UTF-8
    if (at + 3 * s.length > out.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * out.length, at + 3 * s.length));
      out.copy(grown, 0, 0, at);
      out = grown;
    }
    at += out.write(s, at, 'utf8');
  };
  const rows = (list: MarketRow[]) => {
    for (let i = 0; i < list.length; i++) write(i ? `,${JSON.stringify(list[i])}` : JSON.stringify(list[i]));
  };
  write(`{"from":${JSON.stringify(data.from)},"to":${JSON.stringify(data.to)},"projects":[`);
  rows(data.projects);
  write('],"developers":[');
  rows(data.developers);
  write(`],"total":${JSON.stringify(data.total)},"places":`);
  if (data.places === null) write('null}');
  else {
    write(`{"by":${JSON.stringify(data.places.by)},"rows":[`);
    rows(data.places.rows);
    write(']}}');
  }
  return out.subarray(0, at);
}
