import { countOf, PROJECTS, SNAPSHOTS } from '@cena-metra/contract';
import type { Command } from 'commander';
import type { Config } from '../../config.js';
import type { Db } from '../../db/driver.js';
import { DEMO_USER, runDemo } from '../../demo/run.js';
import { Importer } from '../../ingest/importer.js';
import { todayIn } from '../../lib/days.js';
import { CliError } from '../../lib/errors.js';
import { countProjects } from '../../use-cases/reads.js';
import { type GlobalOptions, openContext } from '../context.js';
import { progress } from '../output.js';

/**
 * Generates the demo data with a progress bar, up to today where lists are collected (COLLECT_TZ), as the
 * daily collection would date them.
 */
export async function generateDemo(
  db: Db,
  config: Pick<Config, 'removalGrace' | 'maxCarryDays' | 'collectTz'>,
  seed?: number,
) {
  const bar = progress('демо-данные');
  try {
    const importer = new Importer(db, config.removalGrace, config.maxCarryDays);
    return await runDemo(db, importer, { seed, until: todayIn(config.collectTz) }, (p) =>
      bar.update(p.done, p.total),
    );
  } finally {
    bar.stop();
  }
}

export function registerDemo(program: Command, globals: () => GlobalOptions) {
  program
    .command('demo')
    .description('сгенерировать демо-данные (детерминированно) и учётную запись demo/demo')
    .option('--seed <n>', 'зерно генератора', '42')
    .option('--if-empty', 'только если в базе нет ни одного проекта (первый запуск)')
    .action(async (opts: { seed: string; ifEmpty?: boolean }) => {
      const seed = Number(opts.seed);
      if (!Number.isInteger(seed) || seed < 0)
        throw new CliError(`--seed: ожидается целое число ≥ 0 (получено «${opts.seed}»)`, 2);
      const ctx = await openContext(globals(), 'demo');
      try {
        if (opts.ifEmpty) {
          const count = await countProjects(ctx.db);
          if (count > 0) {
            process.stdout.write(`в базе есть проекты (${count}): демо-данные не созданы\n`);
            return;
          }
          process.stdout.write('пустая база: генерирую демо-данные…\n');
        }
        const result = await generateDemo(ctx.db, ctx.config, seed);
        process.stdout.write(
          `демо-данные: ${countOf(result.projects, PROJECTS)}, ${countOf(result.snapshots, SNAPSHOTS)}; вход: ${DEMO_USER.username} / ${DEMO_USER.password}\n`,
        );
      } finally {
        await ctx.close();
      }
    });
}
