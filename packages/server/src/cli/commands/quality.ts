import { afterGapLabel, formatDecimal2 } from '@cena-metra/contract';
import type { Command } from 'commander';
import { CliError } from '../../lib/errors.js';
import { getProjectQuality } from '../../use-cases/reads.js';
import { type GlobalOptions, openContext } from '../context.js';
import { printRows } from '../output.js';

/** `cena-metra quality <project id>`: the project's data quality report (the dashboard's panel). */
export function registerQuality(program: Command, globals: () => GlobalOptions) {
  program
    .command('quality')
    .description('качество данных проекта: перерывы, неполные сканы, изменения площади, выбросы')
    .argument('<project>', 'номер проекта')
    .action(async (raw: string) => {
      if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
        throw new CliError(`<project>: ожидается номер проекта (получено «${raw.slice(0, 40)}»)`, 2);
      const ctx = await openContext(globals(), 'quality');
      try {
        const q = await getProjectQuality(ctx.db, Number(raw), ctx.config.maxCarryDays);
        if (globals().json) {
          process.stdout.write(`${JSON.stringify(q, null, 2)}\n`);
          return;
        }
        const pct = (v: number | null) => (v === null ? '—' : `${formatDecimal2(v)} %`);
        printRows(
          [
            { показатель: 'проект', значение: `${q.projectName} (№ ${q.projectId})` },
            {
              показатель: 'снимков',
              значение: `${q.snapshots.count}${q.snapshots.first ? `: ${q.snapshots.first} … ${q.snapshots.last}` : ''}`,
            },
            {
              показатель: `перерывов (больше ${q.maxCarryDays} дн.)`,
              значение: q.gaps.length
                ? q.gaps.map((g) => `${g.after} → ${g.before} (${afterGapLabel(g.days)})`).join('; ')
                : 'нет',
            },
            {
              показатель: 'неполных сканов',
              значение: q.partialScans.length
                ? q.partialScans.map((p) => `${p.date}: ${p.flats} из ~${p.median}`).join('; ')
                : 'нет',
            },
            { показатель: 'квартир с изменённой площадью', значение: String(q.areaChangedFlats) },
            { показатель: 'выбросов цены м² в последнем снимке', значение: String(q.ppmOutliers) },
            { показатель: 'забронировано в последнем снимке', значение: pct(q.reservedPercent) },
            { показатель: 'без даты сдачи в последнем снимке', значение: pct(q.noSettlementPercent) },
          ],
          false,
        );
      } finally {
        await ctx.close();
      }
    });
}
