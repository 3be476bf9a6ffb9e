import { dataDateProblem } from '@cena-metra/contract';
import { SingleBar } from 'cli-progress';
import { printable } from '../ingest/snapshot.js';
import { CliError } from '../lib/errors.js';

/** Prints rows as an aligned table on a terminal, or as JSON when asked. */
export function printRows(rows: Record<string, unknown>[], json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write('(пусто)\n');
    return;
  }
  const columns = Object.keys(rows[0]);
  const text = rows.map((r) => columns.map((c) => String(r[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...text.map((t) => t[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${line(columns)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const t of text) process.stdout.write(`${line(t)}\n`);
}

/** A progress bar on a terminal; a line every few seconds otherwise (logs, CI). */
export function progress(label: string) {
  const tty = process.stderr.isTTY;
  const bar = tty
    ? new SingleBar({ format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta}s`, hideCursor: true })
    : null;
  let started = false;
  let lastLog = 0;
  return {
    update(done: number, total: number) {
      if (bar) {
        if (!started) {
          bar.start(total, done);
          started = true;
        }
        bar.setTotal(total);
        bar.update(done);
      } else if (Date.now() - lastLog > 3000 || done === total) {
        lastLog = Date.now();
        process.stderr.write(`${label}: ${done}/${total}\n`);
      }
    },
    stop() {
      if (bar && started) bar.stop();
    },
  };
}

/** A date option of a command: a real date of data (2000-01-01 … tomorrow), else exit 2 naming the option. */
export function dateOption(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = dataDateProblem(value);
  if (problem) throw new CliError(`${option}: ${problem} (получено «${printable(value)}»)`, 2);
  return value;
}
