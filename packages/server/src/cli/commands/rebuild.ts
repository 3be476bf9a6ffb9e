import type { Command } from 'commander';
import { computeAlertsLocked } from '../../use-cases/host.js';
import { rebuildProjects } from '../../use-cases/rebuild.js';
import { type GlobalOptions, openContext } from '../context.js';
import { dateOption, printRows, progress } from '../output.js';

export function registerRebuild(program: Command, globals: () => GlobalOptions) {
  const run = async (from?: string) => {
    dateOption('--from', from);
    const ctx = await openContext(globals(), 'rebuild');
    const bar = progress('пересчёт');
    try {
      const done = await rebuildProjects(
        ctx.db,
        ctx.config.removalGrace,
        from,
        (d, t) => bar.update(d, t),
        ctx.config.maxCarryDays,
      );
      bar.stop();
      // alerts of events the rebuild changed (those already raised stay, once per item and event)
      await computeAlertsLocked(ctx.db);
      printRows(
        done.map((p) => ({ id: p.id, проект: p.name, снимков: p.snapshots })),
        globals().json,
      );
    } finally {
      bar.stop();
      await ctx.close();
    }
  };
  program
    .command('rebuild')
    .description('пересчитать производные данные из наблюдений')
    .action(() => run());
  program
    .command('summary')
    .description('ежедневные сводки')
    .command('build')
    .description('пересобрать сводки (и события) проектов со снимками начиная с даты')
    .option('--from <date>', 'с даты ГГГГ-ММ-ДД')
    .action((opts: { from?: string }) => run(opts.from));
}
