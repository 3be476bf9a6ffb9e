import { countOf, PROJECTS, SNAPSHOTS } from '@cena-metra/contract';
import type { Command } from 'commander';
import type { Db } from '../../db/driver.js';
import { DEMO_USER, runDemo } from '../../demo/run.js';
import { Importer } from '../../ingest/importer.js';
import { CliError } from '../../lib/errors.js';
import { type GlobalOptions, openContext } from '../context.js';
import { progress } from '../output.js';

/** Generates the demo data with a progress bar; shared by `demo` and the first `serve`. */
export async function generateDemo(db: Db, grace: number, carry: number, seed?: number) {
  const bar = progress('демо-данные');
  try {
    return await runDemo(db, new Importer(db, grace, carry), { seed }, (p) => bar.update(p.done, p.total));
  } finally {
    bar.stop();
  }
}

export function registerDemo(program: Command, globals: () => GlobalOptions) {
  program
    .command('demo')
    .description('сгенерировать демо-данные (детерминированно) и учётную запись demo/demo')
    .option('--seed <n>', 'зерно генератора', '42')
    .action(async (opts: { seed: string }) => {
      const seed = Number(opts.seed);
      if (!Number.isInteger(seed) || seed < 0)
        throw new CliError(`--seed: ожидается целое число ≥ 0 (получено «${opts.seed}»)`, 2);
      const ctx = await openContext(globals(), 'demo');
      try {
        const result = await generateDemo(ctx.db, ctx.config.removalGrace, ctx.config.maxCarryDays, seed);
        process.stdout.write(
          `демо-данные: ${countOf(result.projects, PROJECTS)}, ${countOf(result.snapshots, SNAPSHOTS)}; вход: ${DEMO_USER.username} / ${DEMO_USER.password}\n`,
        );
      } finally {
        await ctx.close();
      }
    });
}
