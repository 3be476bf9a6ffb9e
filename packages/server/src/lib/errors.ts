import type { ErrorCode } from '@cena-metra/contract';

/** A domain error with a constant code and HTTP status; its message is safe to show to the user. */
export class AppError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(message, 'NOT_FOUND', 404);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(message, 'VALIDATION_ERROR', 400);
  }
}

/** A CLI failure: one clear line and an exit code (2 bad input, 1 anything else). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** PostgreSQL SQLSTATEs and socket errors that mean the database cannot be reached right now. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
]);

/**
 * Whether an error means the database is down or restarting (a 503 for the caller, who may retry), as
 * opposed to a bug (a 500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; errors?: unknown[] } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  // the server's unix socket is gone while it is stopped
  if (e.code === 'ENOENT' && (e as { syscall?: unknown }).syscall === 'connect') return true;
  // several addresses tried (localhost → ::1 and 127.0.0.1): an AggregateError of refusals
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isDatabaseUnavailable)) return true;
  return (
    typeof e.message === 'string' &&
    /Connection terminated|terminating connection|the database system is (starting up|shutting down)|Client has encountered a connection error/i.test(
      e.message,
    )
  );
}

/** Whether an error is the disk being full (the OS's ENOSPC, or PostgreSQL's words for it). */
export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    !!e &&
    typeof e === 'object' &&
    (e.code === 'ENOSPC' ||
      e.code === '53100' ||
      (typeof e.message === 'string' && /No space left on device/i.test(e.message)))
  );
}

/** What a user reads when the disk is full: what happened, that nothing was half-written, what to do. */
export const DISK_FULL_MESSAGE =
  'на диске нет места: запись не выполнена, база цела; освободите место и повторите';

/** The disk of the embedded database is (about to be) full: nothing was written. */
export class DiskFullError extends AppError {
  constructor(dataDir: string) {
    super(`${DISK_FULL_MESSAGE} (папка данных ${dataDir})`, 'SERVICE_UNAVAILABLE', 507);
  }
}
