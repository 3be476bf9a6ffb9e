import { Importer } from '../../ingest/importer.js';
import { readRegistryFile } from '../../registry/files.js';
import { cliActor, commandHost } from '../../use-cases/host.js';
import { applyRegistryImport } from '../../use-cases/registry.js';
import { type GlobalOptions, openContext } from '../context.js';
import { printRows, progress } from '../output.js';

/** `import --format domrf`: the registry's saved answers through the registry's one door (DESIGN §12.3). */
export async function importRegistryFiles(
  files: string[],
  date: string | undefined,
  globals: () => GlobalOptions,
) {
  const ctx = await openContext(globals(), 'import');
  const bar = progress('реестр');
  try {
    const importer = new Importer(ctx.db, ctx.config.removalGrace, ctx.config.maxCarryDays);
    async function* answers() {
      for (const file of files) yield* readRegistryFile(file, date);
    }
    const results = await applyRegistryImport(commandHost(ctx.db, importer), answers(), cliActor(), (p) =>
      bar.update(p.done, p.total),
    );
    bar.stop();
    printRows(
      results.map((r) => ({
        день: r.day || '—',
        объектов: r.objects,
        изменилось: r.changed,
        отклонено: r.refused.length,
      })),
      globals().json,
    );
    for (const r of results)
      for (const x of r.refused) process.stderr.write(`${r.day || x.source}: ${x.source}: ${x.message}\n`);
    if (results.some((r) => r.refused.length)) process.exitCode = 1;
  } finally {
    bar.stop();
    await ctx.close();
  }
}
