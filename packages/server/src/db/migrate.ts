import type { Db } from './driver.js';
import { MIGRATIONS } from './migrations.js';

/** Applies pending migrations, each in its own transaction; safe to call at every start. */
export async function migrate(db: Db): Promise<number> {
  await db.exec(`create table if not exists schema_migration (
    id int primary key, name text not null, applied_at timestamptz not null default now())`);
  const done = new Set((await db.query<{ id: number }>('select id from schema_migration')).map((r) => r.id));
  let applied = 0;
  for (const m of MIGRATIONS) {
    if (done.has(m.id)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('insert into schema_migration (id, name) values ($1, $2)', [m.id, m.name]);
    });
    applied++;
  }
  return applied;
}
