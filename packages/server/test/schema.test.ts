import { getTableConfig } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { DEFERRED_INDEXES, withIndexesDeferred } from '../src/db/deferred-indexes.js';
import { migrate } from '../src/db/migrate.js';
import { TABLES } from '../src/db/tables.js';
import { describeEachDb } from './databases.js';

/** Drizzle's SQL type names as information_schema spells them. */
const TYPE_NAMES: Record<string, string> = {
  serial: 'integer',
  bigserial: 'bigint',
  integer: 'integer',
  text: 'text',
  date: 'date',
  boolean: 'boolean',
  bigint: 'bigint',
  'double precision': 'double precision',
  'timestamp with time zone': 'timestamp with time zone',
};

/** information_schema says ARRAY for any array: its element type is the udt name's after the `_`. */
const ARRAY_NAMES: Record<string, string> = { _int4: 'integer[]', _text: 'text[]' };

describeEachDb('the Drizzle schema describes the migrated database', (ctx) => {
  it('every table, column, type and nullability matches, and no table is missing from the schema', async () => {
    const columns = await ctx.db.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      udt_name: string;
      is_nullable: string;
    }>(
      `select table_name, column_name, data_type, udt_name, is_nullable from information_schema.columns
       where table_schema = current_schema() and table_name <> 'schema_migration' order by table_name, column_name`,
    );
    const actual = columns.map(
      (c) =>
        `${c.table_name}.${c.column_name} ${c.data_type === 'ARRAY' ? (ARRAY_NAMES[c.udt_name] ?? c.udt_name) : c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}`,
    );
    const expected = TABLES.flatMap((table) => {
      const config = getTableConfig(table);
      const inPk = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
      return config.columns.map(
        (c) =>
          `${config.name}.${c.name} ${TYPE_NAMES[c.getSQLType()] ?? c.getSQLType()}${c.notNull || c.primary || inPk.has(c.name) ? ' not null' : ''}`,
      );
    }).sort();
    expect(actual.sort()).toEqual(expected);
  });

  it('every index the schema names is the database’s, on the same columns', async () => {
    const indexes = await ctx.db.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = current_schema()`,
    );
    const actual = new Map(indexes.map((i) => [i.indexname, i.indexdef]));
    const named = TABLES.flatMap((table) => {
      const config = getTableConfig(table);
      return config.indexes.map((index) => ({
        table: config.name,
        name: index.config.name!,
        columns: index.config.columns.map((c) => ('name' in c ? c.name : '?')).join(', '),
      }));
    });
    // the rank months by the day they reach (migration 39) among them
    expect(named.map((i) => i.name)).toContain('rank_month_reach');
    for (const index of named)
      expect(actual.get(index.name), index.name).toMatch(
        new RegExp(` ON (\\w+\\.)?${index.table} USING btree \\(${index.columns}\\)$`),
      );
  });
});

describeEachDb('the indexes a bulk load builds after it', (ctx) => {
  const definitions = async () =>
    (
      await ctx.db.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where schemaname = current_schema()
         and indexname = any($1::text[]) order by indexname`,
        [DEFERRED_INDEXES.map((i) => i.name)],
      )
    ).map((r) => `${r.indexname}: ${r.indexdef}`);

  it('are the migrations’ own, dropped during a load and built again alike after it, failed or not', async () => {
    const migrated = await definitions();
    expect(migrated).toHaveLength(DEFERRED_INDEXES.length);
    let during: string[] = [];
    const rows = await withIndexesDeferred(ctx.db, async () => {
      during = await definitions();
      return 7;
    });
    expect(rows).toBe(7);
    expect(during).toEqual([]);
    expect(await definitions()).toEqual(migrated);
    await expect(
      withIndexesDeferred(ctx.db, async () => {
        throw new Error('the load failed');
      }),
    ).rejects.toThrow('the load failed');
    expect(await definitions()).toEqual(migrated);
  });

  it('are built again at the next start when a load stopped with them dropped', async () => {
    const migrated = await definitions();
    for (const index of DEFERRED_INDEXES) await ctx.db.exec(`drop index ${index.name}`);
    expect(await definitions()).toEqual([]);
    expect(await migrate(ctx.db)).toBe(0);
    expect(await definitions()).toEqual(migrated);
  });
});
