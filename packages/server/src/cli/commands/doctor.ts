import { existsSync, statfsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type Config, loadConfig } from '../../config.js';
import { type Db, openDb, PGLITE_RESERVE_BYTES } from '../../db/driver.js';
import { lockDataDir } from '../../db/lock.js';
import { appliedMigrations } from '../../db/migrate.js';
import { MIGRATIONS } from '../../db/migrations.js';
import { CliError } from '../../lib/errors.js';
import { builtWebApp } from '../../lib/web-root.js';
import { serverVersion } from '../../use-cases/reads.js';
import type { GlobalOptions } from '../context.js';

/** The oldest Node.js the product runs on (package.json's `engines`). */
export const MIN_NODE = '20.19.0';
/** Below this much free disk a check warns: a year of daily lists of a market takes gigabytes. */
const LOW_DISK_BYTES = 1024 ** 3;

export interface Check {
  what: string;
  state: 'ok' | 'warn' | 'fail';
  /** what was found */
  found: string;
  /** what to do about a warning or a failure */
  todo?: string;
}

const newer = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

/** A database URL as it may be shown: without its password. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(не URL)';
  }
}

function nodeCheck(version: string): Check {
  const ok = version === MIN_NODE || newer(version, MIN_NODE);
  return ok
    ? { what: 'Node.js', state: 'ok', found: `${version} (нужна ${MIN_NODE} или новее)` }
    : {
        what: 'Node.js',
        state: 'fail',
        found: `${version}, а нужна ${MIN_NODE} или новее`,
        todo: 'установите Node.js 20.19+ (или 22, 24), например через nvm: nvm install 22',
      };
}

/** The migrations the database has against those this program knows. */
async function migrationsCheck(db: Db): Promise<Check> {
  const done = await appliedMigrations(db);
  const known = new Set(MIGRATIONS.map((m) => m.id));
  const unknown = done.filter((id) => !known.has(id));
  const pending = MIGRATIONS.filter((m) => !done.includes(m.id));
  if (unknown.length)
    return {
      what: 'миграции',
      state: 'fail',
      found: `база новее программы: миграции ${unknown.join(', ')} этой версии неизвестны`,
      todo: 'обновите Цена метра до версии, с которой работали с этой базой (git pull, npm install)',
    };
  if (done.length === 0)
    return {
      what: 'миграции',
      state: 'ok',
      found: 'база пуста: таблицы будут созданы при первом запуске (npm start или cena-metra serve)',
    };
  if (pending.length)
    return {
      what: 'миграции',
      state: 'warn',
      found: `применено ${done.length} из ${MIGRATIONS.length}`,
      todo: `остальные (${pending.map((m) => m.id).join(', ')}) применятся при следующем запуске сервера; ${
        pending.length > 1 ? 'на большой базе это может занять минуты' : 'это быстро'
      }`,
    };
  return { what: 'миграции', state: 'ok', found: `все ${MIGRATIONS.length} применены` };
}

/** The database the configuration names: reachable, and its migrations' state. */
async function databaseChecks(config: Config): Promise<Check[]> {
  if (config.databaseUrl) {
    let db: Db | null = null;
    try {
      db = await openDb({ databaseUrl: config.databaseUrl, timeoutMs: 5000 });
      const version = await serverVersion(db);
      return [
        {
          what: 'база (DATABASE_URL)',
          state: 'ok',
          found: `PostgreSQL ${version}: ${shown(config.databaseUrl)}`,
        },
        await migrationsCheck(db),
      ];
    } catch (error) {
      return [
        {
          what: 'база (DATABASE_URL)',
          state: 'fail',
          found: `${shown(config.databaseUrl)} недоступна: ${(error as Error).message || (error as NodeJS.ErrnoException).code}`,
          todo: 'проверьте, что PostgreSQL запущен и принимает соединения, а адрес, база, пользователь и пароль в DATABASE_URL верны; без DATABASE_URL работает встроенная база в DATA_DIR',
        },
      ];
    } finally {
      await db?.close().catch(() => {});
    }
  }
  const dir = resolve(config.dataDir);
  // nothing is created here: a data dir without a database is made by the first start
  if (!existsSync(resolve(dir, 'PG_VERSION')))
    return [
      {
        what: 'база (PGlite)',
        state: 'ok',
        found: `${dir}: ещё не создана, будет создана при первом запуске (npm start или cena-metra serve)`,
      },
    ];
  let unlock: () => void;
  try {
    unlock = lockDataDir(dir, 'doctor');
  } catch (error) {
    const busy = error instanceof CliError && /занят|запущен/.test(error.message);
    return [
      busy
        ? {
            what: 'база (PGlite)',
            state: 'ok',
            found: `${dir}: открыта запущенным сервером (${error.message})`,
          }
        : {
            what: 'база (PGlite)',
            state: 'fail',
            found: `${dir}: ${(error as Error).message}`,
            todo: 'укажите папку, доступную для записи: DATA_DIR=/путь или --data-dir /путь',
          },
    ];
  }
  let db: Db | null = null;
  try {
    db = await openDb({ dataDir: dir });
    return [{ what: 'база (PGlite)', state: 'ok', found: dir }, await migrationsCheck(db)];
  } catch (error) {
    return [
      {
        what: 'база (PGlite)',
        state: 'fail',
        found: `${dir} не открывается: ${(error as Error).message}`,
        todo: 'если папка повреждена, восстановите её из резервной копии или начните с пустой папки',
      },
    ];
  } finally {
    await db?.close().catch(() => {});
    unlock();
  }
}

function webCheck(webRoot: string | undefined): Check {
  return webRoot
    ? { what: 'веб-приложение', state: 'ok', found: `собрано: ${webRoot}` }
    : {
        what: 'веб-приложение',
        state: 'fail',
        found: 'не собрано (нет packages/web/dist/index.html): сервер ответит только на /api',
        todo: 'выполните npm run build (npm start собирает его сам)',
      };
}

function diskCheck(config: Config): Check {
  const dir = config.databaseUrl ? process.cwd() : resolve(config.dataDir);
  let at = dir;
  // the data dir may not exist yet: its nearest existing parent is on the same disk
  for (let i = 0; i < 64; i++) {
    try {
      const { bavail, bsize } = statfsSync(at);
      const free = bavail * bsize;
      const mb = Math.floor(free / 1024 / 1024);
      if (free < PGLITE_RESERVE_BYTES)
        return {
          what: 'свободное место',
          state: 'fail',
          found: `${mb} МБ у ${dir}`,
          todo: 'освободите место на диске: без него база не откроется и импорт остановится',
        };
      if (free < LOW_DISK_BYTES)
        return {
          what: 'свободное место',
          state: 'warn',
          found: `${mb} МБ у ${dir}`,
          todo: 'меньше 1 ГБ: год ежедневных списков рынка занимает гигабайты, освободите место заранее',
        };
      return { what: 'свободное место', state: 'ok', found: `${(free / 1024 ** 3).toFixed(1)} ГБ у ${dir}` };
    } catch {
      at = resolve(at, '..');
    }
  }
  return { what: 'свободное место', state: 'warn', found: `не удалось узнать для ${dir}` };
}

/** Every check of `cena-metra doctor`, in the order a new user meets the things checked. */
export async function runDoctor(
  config: Config,
  o: { nodeVersion?: string; webRoot?: string | undefined } = {},
): Promise<Check[]> {
  return [
    nodeCheck(o.nodeVersion ?? process.versions.node),
    ...(await databaseChecks(config)),
    webCheck('webRoot' in o ? o.webRoot : builtWebApp()),
    diskCheck(config),
  ];
}

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

/** `cena-metra doctor`: what stands between this machine and a working product, and what to do. */
export function registerDoctor(program: Command, globals: () => GlobalOptions) {
  program
    .command('doctor')
    .description('проверить установку: Node.js, базу, миграции, сборку веб-приложения, место на диске')
    .action(async () => {
      const options = globals();
      const config = loadConfig(options.dataDir ? { dataDir: options.dataDir } : {});
      const checks = await runDoctor(config);
      if (options.json) process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
      else
        for (const c of checks)
          process.stdout.write(
            `${MARK[c.state]} ${c.what}: ${c.found}${c.todo ? `\n    что сделать: ${c.todo}` : ''}\n`,
          );
      const failed = checks.filter((c) => c.state === 'fail').length;
      if (failed) throw new CliError(`проверок не пройдено: ${failed}`, 1);
      if (!options.json) process.stdout.write('всё в порядке\n');
    });
}
