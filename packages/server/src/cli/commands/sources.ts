import { SOURCE_KINDS } from '@cena-metra/contract';
import type { Command } from 'commander';
import type { SourceRunResult } from '../../collect/collector.js';
import { parseHeader, shownUrl } from '../../collect/sources.js';
import type { Db } from '../../db/driver.js';
import { Importer } from '../../ingest/importer.js';
import { todayIn } from '../../lib/days.js';
import { CliError } from '../../lib/errors.js';
import { collectSources, reparseSources } from '../../use-cases/collect.js';
import { cliActor, commandHost } from '../../use-cases/host.js';
import {
  changeSource,
  createSource,
  deleteSource,
  getSource,
  lastRuns,
  listSources,
  type Source,
} from '../../use-cases/sources.js';
import { type GlobalOptions, openContext } from '../context.js';
import { dateOption, printRows } from '../output.js';

const runRow = (name: string, r: SourceRunResult) => ({
  источник: name,
  дата: r.date,
  итог: r.status,
  страниц: r.pages,
  снимков: r.snapshots,
  квартир: r.flats,
  неполных: r.partial,
  ошибка: r.error ?? '',
});

/** The sources of `--source N` (id or name), or every enabled one. */
async function chosen(db: Db, key?: string): Promise<Source[]> {
  if (key) return [await getSource(db, key)];
  return (await listSources(db)).filter((s) => s.enabled);
}

/** `cena-metra source …`, `collect`, `reparse` (DESIGN §10.8). */
export function registerSources(program: Command, globals: () => GlobalOptions) {
  const source = program.command('source').description('источники прайс-листов для сбора по расписанию');
  source
    .command('add')
    .description('добавить источник')
    .argument('<name>', 'название')
    .requiredOption('--kind <kind>', `вид: ${SOURCE_KINDS.join('|')}`)
    .requiredOption('--url <url>', 'адрес списка')
    .option(
      '--header <K:V>',
      'заголовок запроса (можно несколько)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--developer <name>', 'застройщик (если список его не называет)')
    .option('--project <name>', 'проект (если список его не называет)')
    .action(
      async (
        name: string,
        opts: { kind: string; url: string; header: string[]; developer?: string; project?: string },
      ) => {
        const headers = Object.fromEntries(opts.header.map(parseHeader));
        const ctx = await openContext(globals(), 'source');
        try {
          const s = await createSource(ctx.db, { name, ...opts, headers }, cliActor());
          printRows([{ номер: s.id, источник: s.name, вид: s.kind, адрес: shownUrl(s.url) }], globals().json);
        } finally {
          await ctx.close();
        }
      },
    );
  source
    .command('list')
    .description('источники и их последний сбор')
    .action(async () => {
      const ctx = await openContext(globals(), 'source');
      try {
        const byId = await lastRuns(ctx.db);
        printRows(
          (await listSources(ctx.db)).map((s) => ({
            номер: s.id,
            источник: s.name,
            вид: s.kind,
            адрес: shownUrl(s.url),
            включён: s.enabled ? 'да' : 'нет',
            'последний сбор': byId.get(s.id) ? `${byId.get(s.id)!.date} ${byId.get(s.id)!.status}` : '—',
            квартир: byId.get(s.id)?.flats ?? '',
          })),
          globals().json,
        );
      } finally {
        await ctx.close();
      }
    });
  for (const [command, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    source
      .command(command)
      .description(enabled ? 'включить сбор источника' : 'выключить сбор источника')
      .argument('<source>', 'номер или название')
      .action(async (key: string) => {
        const ctx = await openContext(globals(), 'source');
        try {
          const s = await changeSource(ctx.db, key, { enabled }, cliActor());
          printRows([{ номер: s.id, источник: s.name, включён: s.enabled ? 'да' : 'нет' }], globals().json);
        } finally {
          await ctx.close();
        }
      });
  source
    .command('remove')
    .description('удалить источник и записи его сборов (снимки остаются)')
    .argument('<source>', 'номер или название')
    .action(async (key: string) => {
      const ctx = await openContext(globals(), 'source');
      try {
        const s = await deleteSource(ctx.db, key, cliActor());
        printRows([{ номер: s.id, источник: s.name, удалён: 'да' }], globals().json);
      } finally {
        await ctx.close();
      }
    });

  program
    .command('collect')
    .description('собрать прайс-листы источников сейчас')
    .option('--source <source>', 'номер или название (по умолчанию все включённые)')
    .option('--date <date>', 'дата снимка (по умолчанию сегодня в COLLECT_TZ)')
    .action(async (opts: { source?: string; date?: string }) => {
      dateOption('--date', opts.date);
      const ctx = await openContext(globals(), 'collect');
      try {
        const date = opts.date ?? todayIn(ctx.config.collectTz);
        const importer = new Importer(ctx.db, ctx.config.removalGrace, ctx.config.maxCarryDays);
        // one at a time: a command's lines come in the order asked
        const runs = await collectSources(
          commandHost(ctx.db, importer),
          await chosen(ctx.db, opts.source),
          date,
          cliActor(),
          {},
          1,
        );
        const failed = runs.filter((r) => r.run.status === 'failed').length;
        printRows(
          runs.map((r) => runRow(r.source.name, r.run)),
          globals().json,
        );
        if (failed) throw new CliError(`не собрано источников: ${failed}`, 1);
      } finally {
        await ctx.close();
      }
    });

  program
    .command('reparse')
    .description('прочитать сохранённые ответы источников заново (после исправления формата)')
    .option('--source <source>', 'номер или название (по умолчанию все)')
    .action(async (opts: { source?: string }) => {
      const ctx = await openContext(globals(), 'reparse');
      try {
        const importer = new Importer(ctx.db, ctx.config.removalGrace, ctx.config.maxCarryDays);
        const sources = opts.source ? [await getSource(ctx.db, opts.source)] : await listSources(ctx.db);
        const done = await reparseSources(commandHost(ctx.db, importer), sources, cliActor());
        printRows(
          done.map(({ source, result: r }) => ({
            источник: source.name,
            дата: r?.date ?? '—',
            снимков: r?.results.length ?? 0,
            статус: r ? r.results.map((x) => x.status).join(', ') : 'нет сохранённого ответа',
          })),
          globals().json,
        );
      } finally {
        await ctx.close();
      }
    });
}
