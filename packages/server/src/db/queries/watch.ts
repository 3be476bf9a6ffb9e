import { randomInt } from 'node:crypto';
import type { Role } from '@cena-metra/contract';
import {
  type Alert,
  buildingKey,
  type Facing,
  type RoomGroup,
  type Watch,
  type WatchRules,
  watchLabel,
  watchRulesSchema,
} from '@cena-metra/contract';
import { fromDay, toDay } from '../../lib/days.js';
import { AppError, NotFoundError } from '../../lib/errors.js';
import type { Db } from '../driver.js';

/** What a user asks to watch (the contract's request, parsed). */
export type WatchInput =
  | { kind: 'flat'; flatId: number; rules: WatchRules }
  | {
      kind: 'segment';
      projectId: number;
      building?: string;
      rooms: RoomGroup;
      maxPrice?: number;
      finish?: Facing;
      rules: WatchRules;
    };

/** How many items one user may watch. */
export const MAX_WATCHES = 1000;

const ALERT_COLUMNS = `a.id, a.watch_id as "watchId", a.kind, a.day::text as day, a.flat_id as "flatId",
  p.name as "projectName", a.building, a.rooms, a.area, a.old_price as "oldPrice", a.new_price as "newPrice",
  a.change_percent as "changePercent", a.read_at is not null as read`;

/**
 * Adds a watched item for a user: a flat (404 when unknown; watching it again updates its rules) or a
 * segment of a project (404 when unknown). It alerts on events after the project's latest snapshot.
 */
export async function addWatch(db: Db, userId: number, input: WatchInput): Promise<Watch> {
  const id = await db.transaction(async (tx) => {
    let projectId: number;
    if (input.kind === 'flat') {
      const [flat] = await tx.query<{ project_id: number }>('select project_id from flat where id = $1', [
        input.flatId,
      ]);
      if (!flat) throw new NotFoundError(`квартира ${input.flatId} не найдена`);
      projectId = flat.project_id;
      const [existing] = await tx.query<{ id: number }>(
        'update watch set rules = $3 where user_id = $1 and flat_id = $2 returning id',
        [userId, input.flatId, JSON.stringify(input.rules)],
      );
      if (existing) return existing.id;
    } else {
      const [project] = await tx.query('select 1 from project where id = $1', [input.projectId]);
      if (!project) throw new NotFoundError(`проект ${input.projectId} не найден`);
      projectId = input.projectId;
    }
    const [{ count }] = await tx.query<{ count: number }>(
      'select count(*)::int as count from watch where user_id = $1',
      [userId],
    );
    if (count >= MAX_WATCHES)
      throw new AppError(`можно следить не больше чем за ${MAX_WATCHES} объектами`, 'CONFLICT', 409);
    const [{ last }] = await tx.query<{ last: string | null }>(
      'select max(date)::text as last from snapshot where project_id = $1',
      [projectId],
    );
    const today = toDay(new Date().toISOString().slice(0, 10));
    const since = last === null ? today : toDay(last) + 1;
    const segment = input.kind === 'segment' ? input : null;
    const [row] = await tx.query<{ id: number }>(
      `insert into watch (user_id, kind, project_id, flat_id, building, rooms, max_price, finish, rules, since)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [
        userId,
        input.kind,
        projectId,
        input.kind === 'flat' ? input.flatId : null,
        segment?.building ? buildingKey(segment.building) : null,
        segment?.rooms ?? 'all',
        segment?.maxPrice ?? null,
        segment?.finish ?? null,
        JSON.stringify(input.rules),
        fromDay(since),
      ],
    );
    return row.id;
  });
  return (await listWatches(db, userId, id))[0];
}

/** Changes a watched item's rules (404 when it is not the user's). */
export async function updateWatch(db: Db, userId: number, id: number, rules: WatchRules): Promise<Watch> {
  const rows = await db.query('update watch set rules = $3 where id = $1 and user_id = $2 returning id', [
    id,
    userId,
    JSON.stringify(rules),
  ]);
  if (rows.length === 0) throw new NotFoundError(`объект наблюдения ${id} не найден`);
  return (await listWatches(db, userId, id))[0];
}

/** Deletes a user's watched items matching `column` = `value`, their alerts with them; whether any was. */
async function deleteWatches(
  db: Db,
  userId: number,
  column: 'id' | 'flat_id',
  value: number,
): Promise<boolean> {
  const rows = await db.query(
    `with gone as (delete from watch where user_id = $1 and ${column} = $2 returning id),
       alerts as (delete from watch_alert where watch_id in (select id from gone))
     select id from gone`,
    [userId, value],
  );
  return rows.length > 0;
}

/** Stops watching an item (404 when it is not the user's), its alerts with it. */
export async function removeWatch(db: Db, userId: number, id: number): Promise<void> {
  if (!(await deleteWatches(db, userId, 'id', id)))
    throw new NotFoundError(`объект наблюдения ${id} не найден`);
}

/** Stops watching a flat (for /unwatch); false when it was not watched. */
export async function removeFlatWatch(db: Db, userId: number, flatId: number): Promise<boolean> {
  return deleteWatches(db, userId, 'flat_id', flatId);
}

/** A user's watched items (or one of them), newest first, each with its latest alert and alert count. */
export async function listWatches(db: Db, userId: number, id?: number): Promise<Watch[]> {
  const rows = await db.query<{
    id: number;
    kind: 'flat' | 'segment';
    project_id: number;
    project_name: string;
    flat_id: number | null;
    building: string | null;
    number: string | null;
    flat_building: string | null;
    rooms: RoomGroup;
    max_price: number | null;
    finish: Facing | null;
    rules: string;
    created_at: string;
    alerts: number;
    latest_id: number | null;
  }>(
    `select w.id, w.kind, w.project_id, p.name as project_name, w.flat_id, w.building, w.rooms, w.max_price,
       w.finish, w.rules, w.created_at::text as created_at, fs.number, fs.building as flat_building,
       (select count(*)::int from watch_alert a where a.watch_id = w.id) as alerts,
       (select max(a.id) from watch_alert a where a.watch_id = w.id) as latest_id
     from watch w join project p on p.id = w.project_id
     left join lateral (select s.number, s.building from flat_segment s where s.flat_id = w.flat_id
       order by s.start_day desc limit 1) fs on w.flat_id is not null
     where w.user_id = $1 and ($2::int is null or w.id = $2)
     order by w.id desc`,
    [userId, id ?? null],
  );
  const latestIds = rows.map((r) => r.latest_id).filter((v): v is number => v !== null);
  const latest = new Map<number, Alert>();
  if (latestIds.length)
    for (const a of await db.query<Alert>(
      `select ${ALERT_COLUMNS} from watch_alert a join project p on p.id = a.project_id where a.id = any($1::bigint[])`,
      [latestIds],
    ))
      latest.set(a.watchId, a);
  return rows.map((r) => {
    const building = r.kind === 'flat' ? r.flat_building : r.building;
    return {
      id: r.id,
      kind: r.kind,
      label: watchLabel({
        kind: r.kind,
        projectName: r.project_name,
        flatId: r.flat_id,
        building,
        number: r.number,
        rooms: r.rooms,
        maxPrice: r.max_price,
        finish: r.finish,
      }),
      projectId: r.project_id,
      projectName: r.project_name,
      flatId: r.flat_id,
      building,
      rooms: r.rooms,
      maxPrice: r.max_price,
      finish: r.finish,
      rules: watchRulesSchema.parse(JSON.parse(r.rules)),
      createdAt: r.created_at,
      latest: latest.get(r.id) ?? null,
      alerts: r.alerts,
    };
  });
}

/** A user's alerts, newest first (the unread ones only when asked), and how many are unread. */
export async function listAlerts(
  db: Db,
  userId: number,
  q: { unread?: boolean; limit: number },
): Promise<{ unread: number; alerts: Alert[] }> {
  const alerts = await db.query<Alert>(
    `select ${ALERT_COLUMNS} from watch_alert a join project p on p.id = a.project_id
     where a.user_id = $1 and ($2::boolean is not true or a.read_at is null)
     order by a.day desc, a.id desc limit $3`,
    [userId, q.unread ?? false, q.limit],
  );
  const [{ unread }] = await db.query<{ unread: number }>(
    'select count(*)::int as unread from watch_alert where user_id = $1 and read_at is null',
    [userId],
  );
  return { unread, alerts };
}

/** Marks a user's alerts read: the given ones, or all. Returns how many unread remain. */
export async function markAlertsRead(db: Db, userId: number, ids?: number[]): Promise<number> {
  await db.query(
    `update watch_alert set read_at = now() where user_id = $1 and read_at is null
       and ($2::bigint[] is null or id = any($2::bigint[]))`,
    [userId, ids ?? null],
  );
  const [{ unread }] = await db.query<{ unread: number }>(
    'select count(*)::int as unread from watch_alert where user_id = $1 and read_at is null',
    [userId],
  );
  return unread;
}

/** How long a Telegram link code lives. */
export const LINK_CODE_MINUTES = 15;

/** A fresh one-time code that links a Telegram chat to the user by `/start <code>` (older ones dropped). */
export async function newLinkCode(db: Db, userId: number): Promise<{ code: string; expiresAt: string }> {
  return db.transaction(async (tx) => {
    await tx.query('delete from telegram_link_code where user_id = $1 or expires_at < now()', [userId]);
    // 8 digits: typed by hand if need be; 10⁸ codes, 15 minutes, and a code works once
    const code = String(randomInt(10_000_000, 100_000_000));
    const [row] = await tx.query<{ expires_at: string }>(
      `insert into telegram_link_code (code, user_id, expires_at)
       values ($1, $2, now() + make_interval(mins => $3)) returning expires_at::text as expires_at`,
      [code, userId, LINK_CODE_MINUTES],
    );
    return { code, expiresAt: new Date(row.expires_at).toISOString() };
  });
}

/** Whether the user has a linked Telegram chat. */
export async function telegramLinked(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.query<{ chat: number | null }>(
    'select telegram_chat_id as chat from app_user where id = $1',
    [userId],
  );
  return row?.chat != null;
}

/** Unlinks the user's Telegram chat. */
export async function unlinkTelegram(db: Db, userId: number): Promise<void> {
  await db.query('update app_user set telegram_chat_id = null where id = $1', [userId]);
}

/**
 * Links a chat to the account whose code it is (the code is used up); the chat leaves any other account.
 * Returns the account's name, or null for an unknown or expired code.
 */
export async function linkChat(db: Db, code: string, chatId: number): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ user_id: number }>(
      'delete from telegram_link_code where code = $1 and expires_at >= now() returning user_id',
      [code],
    );
    if (!row) return null;
    await tx.query('update app_user set telegram_chat_id = null where telegram_chat_id = $1', [chatId]);
    const [user] = await tx.query<{ username: string }>(
      'update app_user set telegram_chat_id = $2 where id = $1 returning username',
      [row.user_id, chatId],
    );
    return user.username;
  });
}

/** The account linked to a chat, if any and not disabled, with its role (what the bot may do for it). */
export async function userOfChat(
  db: Db,
  chatId: number,
): Promise<{ id: number; username: string; role: Role } | null> {
  const [row] = await db.query<{ id: number; username: string; role: Role }>(
    'select id, username, role from app_user where telegram_chat_id = $1 and disabled_at is null',
    [chatId],
  );
  return row ?? null;
}
