import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, DISK_FULL_MESSAGE } from '../lib/errors.js';

export const BUSY_MESSAGE = 'база занята запущенным сервером: остановите его или используйте --api URL';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite accepts one process per data dir: a second opener would corrupt it. A lock file holds the
 * owner's pid; a stale one (its process gone) is taken over.
 */
export function lockDataDir(dataDir: string, role: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'cena-metra.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, role }));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {}
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
        throw new CliError(
          `папка данных ${dataDir} недоступна для записи (${code === 'EROFS' ? 'файловая система только для чтения' : 'нет прав'}): база не открыта`,
          1,
        );
      if (code === 'ENOSPC') throw new CliError(`${DISK_FULL_MESSAGE} (папка данных ${dataDir})`, 1);
      if (code !== 'EEXIST') throw error;
      let owner: { pid: number; role: string } | null = null;
      try {
        owner = JSON.parse(readFileSync(path, 'utf8'));
      } catch {}
      if (owner && owner.pid !== process.pid && alive(owner.pid)) {
        throw new CliError(
          owner.role === 'serve' ? BUSY_MESSAGE : `база занята другим процессом (pid ${owner.pid})`,
          1,
        );
      }
      try {
        unlinkSync(path);
      } catch {}
    }
  }
  throw new CliError(BUSY_MESSAGE, 1);
}
