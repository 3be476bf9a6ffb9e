import type { AuditAction, AuditEntry, AuditQuery, ImportResult } from '@cena-metra/contract';
import type { Db } from '../driver.js';

/** Who did an audited thing: a signed-in user (with the request's address), the schedule, or the CLI. */
export interface Actor {
  id: number | null;
  name: string;
  address: string | null;
}

export const SCHEDULE: Actor = { id: null, name: 'расписание', address: null };
/** The server's shell: `cena-metra` commands, named by the operating system's user. */
export function cliActor(): Actor {
  const who = process.env.SUDO_USER || process.env.USER || process.env.LOGNAME;
  return { id: null, name: who ? `cli (${who})` : 'cli', address: null };
}

/**
 * One row of the audit log (DESIGN §11.5): who, when, what, on what, before → after. Written in the
 * caller's transaction when it has one, so a change and its row land together or not at all.
 */
export async function audit(
  db: Db,
  actor: Actor,
  action: AuditAction,
  target: string,
  before: unknown = null,
  after: unknown = null,
): Promise<void> {
  await db.query(
    `insert into audit_log (actor_id, actor, address, action, target, before, after)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      actor.id,
      actor.name,
      actor.address,
      action,
      target,
      before === null || before === undefined ? null : JSON.stringify(before),
      after === null || after === undefined ? null : JSON.stringify(after),
    ],
  );
}

/** The refused attempts the log keeps (DESIGN §12.1). */
export type Refusal = 'auth.login_failed' | 'access.denied' | 'access.throttled';

/**
 * A refused attempt: a failed sign-in (the name tried), a 401 or 403 on a write, a 429. Flood-proof: one
 * row per address, action and minute, whose count grows with each repeat (migration 25).
 */
export async function auditRefusal(
  db: Db,
  actor: Actor,
  action: Refusal,
  target: string,
  now = new Date(),
): Promise<void> {
  const bucket = `${action} ${actor.address ?? '-'} ${now.toISOString().slice(0, 16)}`;
  await db.query(
    `insert into audit_log (at, actor_id, actor, address, action, target, bucket)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (bucket) where bucket is not null do update set count = audit_log.count + 1`,
    [now.toISOString(), actor.id, actor.name, actor.address, action, target, bucket],
  );
}

/** An import's row: named by its projects (the first few), each snapshot's project, day and outcome. */
export async function auditImport(db: Db, actor: Actor, results: ImportResult[]): Promise<void> {
  const names = [...new Set(results.map((r) => r.project))];
  const shown = names.slice(0, 3).join(', ');
  const target = names.length > 3 ? `${shown} и ещё ${names.length - 3}` : shown;
  await audit(db, actor, 'import', target, null, {
    snapshots: results.map((r) => ({
      developer: r.developer,
      project: r.project,
      date: r.date,
      status: r.status,
      flats: r.flats,
    })),
  });
}

/** The where clause and parameters of a query's filters (the page and the CSV read the same rows). */
function filters(q: Omit<AuditQuery, 'offset' | 'limit'>): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', `$${params.length}`));
  };
  // days of Moscow, as every date of the product (DESIGN §3)
  if (q.from) add(`at >= (?::date)::timestamp at time zone 'Europe/Moscow'`, q.from);
  if (q.to) add(`at < (?::date + 1)::timestamp at time zone 'Europe/Moscow'`, q.to);
  if (q.actor) add('lower(actor) = lower(?)', q.actor);
  if (q.action) add('action = ?', q.action);
  return { where: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

interface Row {
  id: string | number;
  at: string | Date;
  actor: string;
  address: string | null;
  action: AuditEntry['action'];
  target: string;
  before: unknown;
  after: unknown;
  count: number;
}
const entry = (r: Row): AuditEntry => ({
  id: Number(r.id),
  at: new Date(r.at).toISOString(),
  actor: r.actor,
  address: r.address,
  action: r.action,
  target: r.target,
  before: typeof r.before === 'string' ? JSON.parse(r.before) : (r.before ?? null),
  after: typeof r.after === 'string' ? JSON.parse(r.after) : (r.after ?? null),
  count: Number(r.count),
});

/** A page of the log, newest first, and how many rows the filters match. */
export async function auditPage(db: Db, q: AuditQuery): Promise<{ total: number; rows: AuditEntry[] }> {
  const { where, params } = filters(q);
  const [{ total }] = await db.query<{ total: number }>(
    `select count(*)::int as total from audit_log ${where}`,
    params,
  );
  const rows = await db.query<Row>(
    `select id, at, actor, address, action, target, before, after, count from audit_log ${where}
     order by id desc limit ${q.limit} offset ${q.offset}`,
    params,
  );
  return { total, rows: rows.map(entry) };
}

/** Every row the filters match, newest first, a batch at a time (the CSV download). */
export async function* auditRows(
  db: Db,
  q: Omit<AuditQuery, 'offset' | 'limit'>,
): AsyncGenerator<AuditEntry> {
  const { where, params } = filters(q);
  const batch = 2_000;
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await db.query<Row>(
      `select id, at, actor, address, action, target, before, after, count from audit_log
       ${where ? `${where} and` : 'where'} id < $${params.length + 1} order by id desc limit ${batch}`,
      [...params, before],
    );
    for (const r of rows) yield entry(r);
    if (rows.length < batch) return;
    before = Number(rows[rows.length - 1].id);
  }
}
