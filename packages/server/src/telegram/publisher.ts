import type { Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Db } from '../db/driver.js';
import { type Job, type JobLog, runJobOnce } from '../jobs/jobs.js';
import { digestBlocks, splitMessage } from './format.js';
import { ALL_PROJECTS, digestOf, latestSummary, loadSummaryDay } from './queries.js';
import { sendParts } from './send.js';

export type PublisherLog = JobLog;

export interface PublisherOptions {
  db: Db;
  api: Api;
  /** TELEGRAM_CHANNEL_ID: the channel that gets every digest (optional). */
  channelId?: string;
  /** PUBLIC_URL: where the buttons lead (no buttons without it). */
  publicUrl?: string;
  /** A summary is posted once no import has changed it for this long. */
  settleSeconds: number;
  log: PublisherLog;
  /** Waits for Telegram's retry_after (tests pass a faster clock). */
  sleep?: (ms: number) => Promise<void>;
}

export interface PublishReport {
  planned: number | null;
  sent: number;
  blocked: number;
  failed: number;
  /** Deliveries left pending (Telegram unreachable): the next run resumes them. */
  pending: number;
}

/** The publisher's job name: its lock and its run records. */
export const PUBLISHER_JOB = 'telegram-publisher';

interface Delivery {
  summary_id: number;
  chat_id: string;
  is_channel: boolean;
  parts: string;
  sent_parts: number;
}

/**
 * Posts each day's summary once (DESIGN §7): to the channel and to every subscriber whose projects had a
 * snapshot that day. Planning inserts the post and all its deliveries (with their message parts) in one
 * transaction; sending advances each delivery's sent_parts after every part Telegram accepts. It runs as
 * a job (jobs/jobs.ts): under the job's database-wide lock, so two server processes never send the same
 * part, with a run record, and a publisher started after a crash resumes at the first part not recorded
 * as sent.
 */
export class Publisher {
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly options: PublisherOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
  }

  /** The publisher as a job: `everySeconds` is the poll for imports made by other processes. */
  job(everySeconds?: number): Job<PublishReport> {
    return {
      name: PUBLISHER_JOB,
      schedule: everySeconds ? { everySeconds } : undefined,
      run: async () => {
        const planned = await this.planLatest();
        return { planned, ...(await this.deliverPending()) };
      },
    };
  }

  /**
   * One run, as the job runner makes it: plans the newest summary if it has settled and was never
   * posted, then sends what is pending. Throws what the run failed with.
   */
  async run(): Promise<PublishReport> {
    return runJobOnce(this.options.db, this.job(), this.options.log);
  }

  /** The id of the summary planned now, or null (none, not settled, or posted before). */
  private async planLatest(): Promise<number | null> {
    const { db, settleSeconds } = this.options;
    const latest = await latestSummary(db);
    if (!latest) return null;
    const [ready] = await db.query<{ ok: boolean }>(
      `select updated_at <= now() - make_interval(secs => $2) as ok from daily_summary where id = $1
         and not exists (select 1 from telegram_post where summary_id = $1)`,
      [latest.id, settleSeconds],
    );
    if (!ready?.ok) return null;
    return (await this.plan(latest.id)) ? latest.id : null;
  }

  /** Plans one summary's deliveries; false when it had been planned before. */
  async plan(summaryId: number): Promise<boolean> {
    const { db, channelId, log } = this.options;
    const targets: { chat: string; isChannel: boolean; projects: number[] | null }[] = [];
    if (channelId) targets.push({ chat: channelId, isChannel: true, projects: null });
    const subscribers = await db.query<{ chat_id: number; projects: number[] }>(
      `select chat_id, array_agg(project_id order by project_id) as projects
       from telegram_subscription group by chat_id order by chat_id`,
    );
    for (const s of subscribers)
      targets.push({
        chat: String(s.chat_id),
        isChannel: false,
        projects: s.projects.includes(ALL_PROJECTS) ? null : s.projects,
      });
    const rows: { chat: string; isChannel: boolean; parts: string }[] = [];
    const day = await loadSummaryDay(db, summaryId);
    for (const t of targets) {
      const digest = digestOf(day, t.projects);
      if (digest)
        rows.push({
          chat: t.chat,
          isChannel: t.isChannel,
          parts: JSON.stringify(splitMessage(digestBlocks(digest))),
        });
    }
    const inserted = await db.transaction(async (tx) => {
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
    if (inserted)
      log.info({ summaryId, deliveries: rows.length }, 'telegram: сводка запланирована к отправке');
    return inserted;
  }

  private keyboard(d: Delivery): InlineKeyboardMarkup | undefined {
    const { publicUrl } = this.options;
    if (!publicUrl) return undefined;
    const url = `${publicUrl.replace(/\/+$/, '')}/summary/${d.summary_id}`;
    // A WebApp button works in a private chat only (a positive chat id); channels and groups get a link.
    const privateChat = !d.is_channel && Number(d.chat_id) > 0;
    return {
      inline_keyboard: [
        [privateChat ? { text: 'Открыть сводку', web_app: { url } } : { text: 'Открыть сводку', url }],
      ],
    };
  }

  private async deliverPending(): Promise<Omit<PublishReport, 'planned'>> {
    const { db, log } = this.options;
    const report = { sent: 0, blocked: 0, failed: 0, pending: 0 };
    const deliveries = await db.query<Delivery>(
      `select summary_id, chat_id, is_channel, parts, sent_parts from telegram_delivery
       where status = 'pending' order by summary_id, is_channel desc, chat_id`,
    );
    let reachable = true;
    for (const d of deliveries) {
      if (!reachable) {
        report.pending++;
        continue;
      }
      const outcome = await this.deliver(d);
      if (outcome === 'unreachable') {
        reachable = false;
        report.pending++;
      } else report[outcome]++;
    }
    await db.query(
      `update telegram_post set done_at = now() where done_at is null
         and not exists (select 1 from telegram_delivery d where d.summary_id = telegram_post.summary_id and d.status = 'pending')`,
    );
    if (deliveries.length) log.info(report, 'telegram: рассылка');
    return report;
  }

  private async deliver(d: Delivery): Promise<'sent' | 'blocked' | 'failed' | 'unreachable'> {
    const { db, api, log } = this.options;
    const parts: string[] = JSON.parse(d.parts);
    const outcome = await sendParts({
      api,
      chatId: d.chat_id,
      parts,
      from: d.sent_parts,
      keyboard: (i) => (i === parts.length - 1 ? this.keyboard(d) : undefined),
      sleep: this.sleep,
      sent: async (i) => {
        await db.query(
          `update telegram_delivery set sent_parts = $3::int, status = case when $3::int = $4::int then 'sent' else status end,
             error = null, updated_at = now() where summary_id = $1 and chat_id = $2`,
          [d.summary_id, d.chat_id, i + 1, parts.length],
        );
      },
    });
    if (outcome.status === 'blocked') {
      await db.transaction(async (tx) => {
        await tx.query(
          `update telegram_delivery set status = 'blocked', error = $3, updated_at = now()
           where summary_id = $1 and chat_id = $2`,
          [d.summary_id, d.chat_id, outcome.error],
        );
        if (!d.is_channel)
          await tx.query('delete from telegram_subscription where chat_id = $1', [Number(d.chat_id)]);
      });
      log.warn({ chat: d.chat_id, error: outcome.error }, 'telegram: чат недоступен, подписка снята');
    } else if (outcome.status === 'failed') {
      await db.query(
        `update telegram_delivery set status = 'failed', error = $3, updated_at = now()
         where summary_id = $1 and chat_id = $2`,
        [d.summary_id, d.chat_id, outcome.error],
      );
      log.warn({ chat: d.chat_id, error: outcome.error }, 'telegram: сообщение отклонено');
    } else if (outcome.status === 'unreachable') {
      await db.query(
        'update telegram_delivery set error = $3, updated_at = now() where summary_id = $1 and chat_id = $2',
        [d.summary_id, d.chat_id, outcome.error],
      );
      log.warn({ chat: d.chat_id, error: outcome.error }, 'telegram: отправка отложена');
    }
    return outcome.status;
  }
}
