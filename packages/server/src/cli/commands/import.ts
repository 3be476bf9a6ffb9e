import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { Importer } from '../../ingest/importer.js';
import { FORMATS, type Format, type ReadItem, readFileSnapshots } from '../../ingest/readers/index.js';
import { SKIP_REASONS, type SkipReason } from '../../ingest/readers/yrl.js';
import { CliError } from '../../lib/errors.js';
import { cliActor, commandHost } from '../../use-cases/host.js';
import { applyImport } from '../../use-cases/imports.js';
import { type GlobalOptions, openContext } from '../context.js';
import { dateOption, printRows, progress } from '../output.js';
import { importRegistryFiles } from './import-registry.js';

const EXTENSIONS = /\.(json|ndjson|jsonl|csv|xml|yrl)$/i;

/** Files named on the command line; a directory stands for its snapshot files, in name order. */
export function expandPaths(paths: string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      throw new CliError(`${path}: файл не найден`, 2);
    }
    if (stat.isDirectory()) {
      files.push(
        ...readdirSync(path)
          .filter((name) => EXTENSIONS.test(name) && name !== 'projects.csv')
          .sort()
          .map((name) => join(path, name)),
      );
    } else files.push(path);
  }
  if (files.length === 0) throw new CliError('нет файлов снимков для импорта', 2);
  return files;
}

export function registerImport(program: Command, globals: () => GlobalOptions) {
  program
    .command('import')
    .description(
      'импорт снимков прайс-листов (json, ndjson, csv, pik, pik-csv, yrl — фид Яндекс.Недвижимости) или ответов реестра (domrf)',
    )
    .argument('<paths...>', 'файлы или папки')
    .option('--format <format>', `формат: ${[...FORMATS, 'domrf'].join('|')}`, 'auto')
    .option('--date <date>', 'дата снимка (для pik и pik-csv, если её нет в имени файла)')
    .option('--developer <name>', 'застройщик (заменяет указанного в файле)')
    .option('--project <name>', 'проект (заменяет указанный в файле)')
    .option(
      '--complete',
      'списки полные, даже если квартир намного меньше обычного (распродажа): не считать их неполными',
    )
    .action(
      async (
        paths: string[],
        opts: { format: string; date?: string; developer?: string; project?: string; complete?: boolean },
      ) => {
        if (!(FORMATS as readonly string[]).includes(opts.format) && opts.format !== 'domrf')
          throw new CliError(
            `--format: допустимо ${[...FORMATS, 'domrf'].join(', ')} (получено «${opts.format}»)`,
            2,
          );
        dateOption('--date', opts.date);
        const files = expandPaths(paths);
        if (opts.format === 'domrf') return importRegistryFiles(files, opts.date, globals);
        const ctx = await openContext(globals(), 'import');
        const bar = progress('импорт');
        try {
          const importer = new Importer(ctx.db, ctx.config.removalGrace, ctx.config.maxCarryDays);
          const readOptions = {
            format: opts.format as Format,
            date: opts.date,
            developer: opts.developer,
            project: opts.project,
          };
          // offers of a feed that are not flats for sale (YRL), by file: said after the table
          const skipped = new Map<string, Partial<Record<string, number>>>();
          const results = await applyImport(
            commandHost(ctx.db, importer),
            {
              sources: files.map(
                (file) => () =>
                  tallySkipped(
                    asComplete(readFileSnapshots(file, readOptions), opts.complete === true),
                    (counts) => skipped.set(file, counts),
                  ),
              ),
              onProgress: (p) => {
                if (p.phase === 'apply') bar.update(p.done, p.total);
              },
            },
            cliActor(),
          );
          bar.stop();
          printRows(
            results.map((r) => ({
              застройщик: r.developer,
              проект: r.project,
              дата: r.date,
              статус: r.status,
              квартир: r.flats,
              новых: r.events.NEW,
              снято: r.events.REMOVED,
              дороже: r.events.PRICE_UP,
              дешевле: r.events.PRICE_DOWN,
              площадь: r.events.AREA_CHANGED,
              список: r.partial ? 'неполный' : 'полный',
            })),
            globals().json,
          );
          for (const [file, counts] of skipped) {
            const parts = Object.entries(counts).map(
              ([k, n]) => `${SKIP_REASONS[k as SkipReason] ?? k} ${n}`,
            );
            if (parts.length) process.stderr.write(`${file}: пропущено предложений: ${parts.join(', ')}\n`);
          }
        } finally {
          bar.stop();
          await ctx.close();
        }
      },
    );
}

/** `--complete` (DESIGN §10.4): every snapshot read is marked whole, never partial. */
async function* asComplete(items: AsyncIterable<ReadItem>, complete: boolean): AsyncIterable<ReadItem> {
  for await (const item of items)
    yield complete && 'snapshot' in item ? { ...item, snapshot: { ...item.snapshot, complete } } : item;
}

/** Passes items through, telling `note` what a feed skipped (the same counts for each of its snapshots). */
async function* tallySkipped(
  items: AsyncIterable<ReadItem>,
  note: (counts: Partial<Record<string, number>>) => void,
): AsyncIterable<ReadItem> {
  for await (const item of items) {
    if ('snapshot' in item && item.skipped) note(item.skipped);
    yield item;
  }
}
