import { DEFAULT_CARRY_DAYS } from '../analytics/types.js';
import type { Db } from '../db/driver.js';
import { deleteLinks } from '../db/queries/hedonic-links.js';
import { clearSpans } from '../db/queries/market-spans.js';
import { clearMigrationMarks, migrationMarks } from '../db/queries/meta.js';
import { loadModel } from '../db/queries/model.js';
import { bumpDataVersion, lockProject, projectsSince } from '../db/queries/projects.js';
import { keepHedonicOfAll } from '../derive/hedonic.js';
import { rebuildProjectDerived } from '../derive/index.js';
import { keepRanksOfKeptSummaries, keepTailsOfKeptSummaries, splitKeptPace } from '../derive/pace.js';
import { keepRegistryClasses, keepRegistryKept } from '../derive/registry.js';
import { keepSeriesColumns, layOutKeptSeries } from '../derive/series.js';
import { MarketReader } from '../read/market-reader.js';
import { ReadCache } from '../read/read-cache.js';
import { keepMarketSpansLocked } from './market-spans.js';
import { rebuildRegistry } from './registry.js';

// What `cena-metra rebuild` and every open (after a migration that asks for it) run: the derived data
// recomputed from the observations, or the kept forms a migration changed made again.

/** Recomputes the derived data (timeline, cube, events, summaries, the market's spans) from the observations. */
export async function rebuildProjects(
  db: Db,
  grace: number,
  fromDate?: string,
  onProgress?: (done: number, total: number) => void,
  carry = DEFAULT_CARRY_DAYS,
) {
  const projects = await projectsSince(db, fromDate ?? null);
  const out: { id: number; name: string; snapshots: number }[] = [];
  for (const p of projects) {
    await db.transaction(async (tx) => {
      await lockProject(tx, p.id);
      const model = await loadModel(tx, p.id, grace, carry);
      await rebuildProjectDerived(tx, model);
      await bumpDataVersion(tx, p.id);
      out.push({ ...p, snapshots: model.dates.length });
    });
    onProgress?.(out.length, projects.length);
  }
  // the market's spans and the hedonic index's links made again from the summaries just made (a whole rebuild makes each one anew), and
  // the registry's states from its raw answers, matched again to the projects
  if (!fromDate) {
    await clearSpans(db);
    await deleteLinks(db, null);
    await rebuildRegistry(db);
  }
  await keepMarketSpansLocked(db, new MarketReader(new ReadCache()));
  return out;
}

/**
 * Rebuilds every project's derived data when a migration changed stored records (app_meta
 * `rebuild_needed`, e.g. the building keys of migration 5), then clears the mark; splits the kept pace
 * summaries into the ranking's months when migration 14 asks (`ranks_by_month_needed`) and lays out the
 * kept stats series as sent when migration 23 asks (`series_layout_needed`) and the kept pace summaries into
 * years when migration 24 asks (`pace_parts_needed`) and writes them as columns when migration 28 asks
 * (`pace_form_needed`) and keeps the projects' registry classes when migration 30 asks
 * (`registry_class_needed`) and the registry's kept figures' inputs when migration 31 asks
 * (`registry_kept_needed`) or migration 38 (the light histories as bytes) and makes the pace summaries'
 * tails when migration 40 asks (`pace_tails_needed`), which a rebuild does too. Run at
 * every open.
 */
export async function rebuildIfMarked(
  db: Db,
  grace: number,
  carry: number,
  say: (line: string) => void,
): Promise<void> {
  const marks = () => migrationMarks(db);
  if ((await marks()).size === 0) return;
  // several servers starting on one PostgreSQL: one rebuilds, the others find the marks gone
  await db.withLock('cena-metra:rebuild-after-migration', async () => {
    const marked = await marks();
    const rebuild = marked.get('rebuild_needed');
    if (rebuild) {
      say(`пересчёт производных данных после обновления (${rebuild})…`);
      const done = await rebuildProjects(db, grace, undefined, undefined, carry);
      say(`пересчитано проектов: ${done.length}`);
    } else {
      // each part read (in either stored form) and written again, by years and as columns
      if (marked.has('pace_parts_needed') || marked.has('pace_form_needed')) {
        say('сводки темпа продаж записываются заново (по годам, столбцами)…');
        await splitKeptPace(db);
      }
      if (marked.has('pace_tails_needed')) {
        say('хвосты сводок темпа продаж…');
        await keepTailsOfKeptSummaries(db);
      }
      if (marked.has('ranks_by_month_needed')) {
        say('сводки для рейтинга рынка раскладываются по месяцам…');
        await keepRanksOfKeptSummaries(db);
      }
      if (marked.has('series_layout_needed')) {
        say('ряды статистики записываются в виде ответа…');
        await layOutKeptSeries(db);
      }
      if (marked.has('series_columns_needed')) {
        say('ряды статистики записываются столбцами…');
        await keepSeriesColumns(db);
      }
      if (marked.has('registry_kept_needed')) {
        say('показатели реестра…');
        await keepRegistryKept(db);
      }
      if (marked.has('registry_class_needed')) {
        say('классы проектов по реестру…');
        await keepRegistryClasses(db);
      }
      if (marked.has('hedonic_months_needed')) {
        say('суммы гедонической модели по месяцам…');
        await keepHedonicOfAll(db, grace, carry);
      }
    }
    await clearMigrationMarks(db);
  });
}
