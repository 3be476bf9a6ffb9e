import { getTableConfig } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
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
});
