import { Command, CommanderError } from 'commander';
import { SnapshotValidationError } from '../ingest/snapshot.js';
import { AppError, CliError, DISK_FULL_MESSAGE, isDiskFull } from '../lib/errors.js';
import { holdLoop } from '../lib/hold-loop.js';
import { registerBot } from './commands/bot.js';
import { registerDemo } from './commands/demo.js';
import { registerDoctor } from './commands/doctor.js';
import { registerImport } from './commands/import.js';
import { registerQuality } from './commands/quality.js';
import { registerRebuild } from './commands/rebuild.js';
import { registerServe } from './commands/serve.js';
import { registerSources } from './commands/sources.js';
import { registerUser } from './commands/user.js';
import type { GlobalOptions } from './context.js';

const program = new Command('cena-metra')
  .description('Цена метра: аналитика цен новостроек')
  .option('--data-dir <dir>', 'папка встроенной базы PGlite (если не задан DATABASE_URL)')
  .option('--json', 'вывод в JSON')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });
const globals = () => program.opts<GlobalOptions>();

registerServe(program, globals);
registerImport(program, globals);
registerDemo(program, globals);
registerUser(program, globals);
registerRebuild(program, globals);
registerQuality(program, globals);
registerBot(program, globals);
registerSources(program, globals);
registerDoctor(program, globals);

/** One clear line per error; exit 2 for bad input, 1 for anything else. */
function fail(error: unknown): never {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof SnapshotValidationError) {
    process.stderr.write(`ошибка: снимки отклонены, база не изменена:\n${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof CliError) {
    process.stderr.write(`ошибка: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  if (isDiskFull(error)) {
    process.stderr.write(`ошибка: ${DISK_FULL_MESSAGE} (${(error as Error).message})\n`);
    process.exit(1);
  }
  if (error instanceof AppError) {
    process.stderr.write(`ошибка: ${error.message}\n`);
    process.exit(error.statusCode < 500 ? 2 : 1);
  }
  process.stderr.write(`ошибка: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
}

// the loop held while a command runs (lib/hold-loop.ts): PGlite's awaits alone let it run empty, and Node then
// waits for V8's background tasks on this thread; a server's socket holds it once it listens
holdLoop(program.parseAsync(process.argv)).catch(fail);
