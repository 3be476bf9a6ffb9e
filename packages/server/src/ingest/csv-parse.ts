import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Splits one CSV record into fields (RFC 4180 quotes, "" for a quote inside). */
export function splitCsvRecord(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

function quotesOpen(text: string): boolean {
  let open = false;
  for (let i = 0; i < text.length; i++) if (text[i] === '"') open = !open;
  return open;
}

/** The separator of a header line: `;` when it has more of them than commas. */
export function detectSeparator(header: string): string {
  const semicolons = header.split(';').length;
  const commas = header.split(',').length;
  return semicolons > commas ? ';' : ',';
}

export interface CsvRecord {
  /** 1-based line number where the record starts */
  line: number;
  fields: string[];
}

/** Streams a CSV file's records (header first), UTF-8 with or without BOM, in bounded memory. */
export async function* readCsvRecords(path: string): AsyncGenerator<CsvRecord & { separator: string }> {
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let separator: string | null = null;
  let lineNo = 0;
  let pending = '';
  let pendingStart = 0;
  for await (const rawLine of lines) {
    lineNo++;
    let line = rawLine;
    if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (pending) {
      pending += `\n${line}`;
      if (quotesOpen(pending)) continue;
      line = pending;
      pending = '';
    } else if (quotesOpen(line)) {
      pending = line;
      pendingStart = lineNo;
      continue;
    } else pendingStart = lineNo;
    if (line.trim() === '') continue;
    if (separator === null) separator = detectSeparator(line);
    yield { line: pendingStart, fields: splitCsvRecord(line, separator), separator };
  }
  if (pending)
    yield {
      line: pendingStart,
      fields: splitCsvRecord(pending, separator ?? ','),
      separator: separator ?? ',',
    };
}
