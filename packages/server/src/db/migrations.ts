import { SEED } from './migrations/seed.js';
import { STAGE_2 } from './migrations/stage-2.js';
import { STAGE_3 } from './migrations/stage-3.js';
import { STAGE_4 } from './migrations/stage-4.js';

/**
 * Schema migrations, applied in order at start and recorded in schema_migration. Append only: a
 * released migration is never edited. Every large table carries project_id, the Citus distribution key.
 */
export const MIGRATIONS: { id: number; name: string; sql: string }[] = [
  ...SEED,
  ...STAGE_2,
  ...STAGE_3,
  ...STAGE_4,
];
