import type { Alert } from '@cena-metra/contract';
import type { Db } from '../driver.js';

// What the bot sends and how far it got (DESIGN §7): the daily summary's deliveries to the channel and to
// subscribers, and each user's message of alerts. A row is planned once, then advanced part by part.

/** A summary's delivery to one chat, as stored. */
export interface Delivery {
  summary_id: number;
  chat_id: string;
  is_channel: boolean;
  parts: string;
  sent_parts: number;
}

export type DeliveryOutcome = 'blocked' | 'failed' | 'unreachable';

/** Whether a summary has settled (unchanged for `settleSeconds`) and was never planned. */
export async function summarySettled(db: Db, summaryId: number, settleSeconds: number): Promise<boolean> {
  const [ready] = await db.query<{ ok: boolean }>(
    `select updated_at <= now() - make_interval(secs => $2) as ok from daily_summary where id = $1
       and not exists (select 1 from telegram_post where summary_id = $1)`,
    [summaryId, settleSeconds],
  );
  return ready?.ok === true;
}

/** Each subscribed chat with the projects it follows (0 = every project). */
export async function subscribers(db: Db): Promise<{ chat_id: number; projects: number[] }[]> {
  return db.query<{ chat_id: number; projects: number[] }>(
    `select chat_id, array_agg(project_id order by project_id) as projects
     from telegram_subscription group by chat_id order by chat_id`,
  );
}

/** Plans a summary's deliveries in one transaction; false when it had been planned before. */
export async function planDeliveries(
  db: Db,
  summaryId: number,
  rows: { chat: string; isChannel: boolean; parts: string }[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [post] = await tx.query(
      'insert into telegram_post (summary_id) values ($1) on conflict do nothing returning summary_id',
      [summaryId],
    );
    if (!post) return false;
    if (rows.length)
      await tx.query(
        `insert into telegram_delivery (summary_id, chat_id, is_channel, parts)
         select $1, * from unnest($2::text[], $3::boolean[], $4::text[])`,
        [summaryId, rows.map((r) => r.chat), rows.map((r) => r.isChannel), rows.map((r) => r.parts)],
      );
    return true;
  });
}

export async function pendingDeliveries(db: Db): Promise<Delivery[]> {
  return db.query<Delivery>(
    `select summary_id, chat_id, is_channel, parts, sent_parts from telegram_delivery
     where status = 'pending' order by summary_id, is_channel desc, chat_id`,
  );
}

/** Marks done the posts with no delivery pending. */
export async function closeFinishedPosts(db: Db): Promise<void> {
  await db.query(
    `update telegram_post set done_at = now() where done_at is null
       and not exists (select 1 from telegram_delivery d where d.summary_id = telegram_post.summary_id and d.status = 'pending')`,
  );
}

/** `sent` of a delivery's `total` parts are out: done when they are all. */
export async function deliveryProgress(db: Db, d: Delivery, sent: number, total: number): Promise<void> {
  await db.query(
    `update telegram_delivery set sent_parts = $3::int, status = case when $3::int = $4::int then 'sent' else status end,
       error = null, updated_at = now() where summary_id = $1 and chat_id = $2`,
    [d.summary_id, d.chat_id, sent, total],
  );
}

/**
 * A delivery that did not go: blocked (the chat's subscriptions end with it) and failed stop it; an
 * unreachable Telegram leaves it pending with the error.
 */
export async function deliveryFailed(
  db: Db,
  d: Delivery,
  outcome: DeliveryOutcome,
  error: string | null,
): Promise<void> {
  const where = 'where summary_id = $1 and chat_id = $2';
  if (outcome === 'unreachable') {
    await db.query(`update telegram_delivery set error = $3, updated_at = now() ${where}`, [
      d.summary_id,
      d.chat_id,
      error,
    ]);
    return;
  }
  await db.transaction(async (tx) => {
    await tx.query(`update telegram_delivery set status = $3, error = $4, updated_at = now() ${where}`, [
      d.summary_id,
      d.chat_id,
      outcome,
      error,
    ]);
    if (outcome === 'blocked' && !d.is_channel)
      await tx.query('delete from telegram_subscription where chat_id = $1', [Number(d.chat_id)]);
  });
}

/** A user's message of alerts for a day, as stored. */
export interface AlertDigestRow {
  user_id: number;
  day: string;
  chat_id: number;
  parts: string;
  sent_parts: number;
}

/**
 * Linked users (not viewers, not disabled) with alerts not yet sent, the newest of them settled for
 * `settleSeconds`, and no message planned for `day`.
 */
export async function usersWithSettledAlerts(
  db: Db,
  day: string,
  settleSeconds: number,
): Promise<{ id: number; chat: number }[]> {
  return db.query<{ id: number; chat: number }>(
    `select u.id, u.telegram_chat_id as chat from app_user u
     where u.telegram_chat_id is not null and u.disabled_at is null and u.role <> 'viewer'
       and not exists (select 1 from alert_digest d where d.user_id = u.id and d.day = $1)
       and (select max(a.created_at) from watch_alert a where a.user_id = u.id and a.digest_day is null)
         <= now() - make_interval(secs => $2)
     order by u.id`,
    [day, settleSeconds],
  );
}

/** A user's alerts not yet in a message, by watch, day, flat and kind. */
export async function unsentAlerts(db: Db, userId: number): Promise<(Alert & { watchId: number })[]> {
  return db.query<Alert & { watchId: number }>(
    `select a.id, a.watch_id as "watchId", a.kind, a.day::text as day, a.flat_id as "flatId",
       p.name as "projectName", a.building, a.rooms, a.area, a.old_price as "oldPrice",
       a.new_price as "newPrice", a.change_percent as "changePercent", a.read_at is not null as read
     from watch_alert a join project p on p.id = a.project_id
     where a.user_id = $1 and a.digest_day is null order by a.watch_id, a.day, a.flat_id, a.kind`,
    [userId],
  );
}

/** Plans a user's message of `alertIds` for `day` in one transaction; false when one was planned before. */
export async function planAlertDigest(
  db: Db,
  user: { id: number; chat: number },
  day: string,
  parts: string,
  alertIds: number[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query(
      `insert into alert_digest (user_id, day, chat_id, parts) values ($1, $2, $3, $4)
       on conflict do nothing returning user_id`,
      [user.id, day, user.chat, parts],
    );
    if (!row) return false;
    await tx.query('update watch_alert set digest_day = $2 where id = any($1::bigint[])', [alertIds, day]);
    return true;
  });
}

export async function pendingAlertDigests(db: Db): Promise<AlertDigestRow[]> {
  return db.query<AlertDigestRow>(
    `select user_id, day::text as day, chat_id, parts, sent_parts from alert_digest
     where status = 'pending' order by day, user_id`,
  );
}

const DIGEST_ROW = 'where user_id = $1 and day = $2';

export async function alertDigestProgress(
  db: Db,
  d: AlertDigestRow,
  sent: number,
  total: number,
): Promise<void> {
  await db.query(
    `update alert_digest set sent_parts = $3::int, status = case when $3::int = $4::int then 'sent' else status end,
       error = null, updated_at = now() ${DIGEST_ROW}`,
    [d.user_id, d.day, sent, total],
  );
}

/**
 * A message of alerts that did not go: unreachable leaves it pending with the error; blocked and failed
 * stop it, and a chat that blocked the bot is unlinked (the alerts stay on the site).
 */
export async function alertDigestFailed(
  db: Db,
  d: AlertDigestRow,
  outcome: DeliveryOutcome,
  error: string | null,
): Promise<void> {
  if (outcome === 'unreachable') {
    await db.query(`update alert_digest set error = $3, updated_at = now() ${DIGEST_ROW}`, [
      d.user_id,
      d.day,
      error,
    ]);
    return;
  }
  await db.transaction(async (tx) => {
    await tx.query(`update alert_digest set status = $3, error = $4, updated_at = now() ${DIGEST_ROW}`, [
      d.user_id,
      d.day,
      outcome,
      error,
    ]);
    if (outcome === 'blocked')
      await tx.query('update app_user set telegram_chat_id = null where id = $1 and telegram_chat_id = $2', [
        d.user_id,
        d.chat_id,
      ]);
  });
}
