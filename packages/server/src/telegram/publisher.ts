import { type Api, GrammyError, HttpError } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Db } from '../db/driver.js';
import { type Job, type JobLog, runJob } from '../jobs/jobs.js';
import { digestBlocks, splitMessage } from './format.js';
import { ALL_PROJECTS, digestOf, latestSummary, loadSummaryDay } from './store.js';

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
/** 429s one part may get before the run leaves it for the next one. */
const MAX_RETRIES = 5;

interface Delivery {
  summary_id: number;
  chat_id: string;
  is_channel: boolean;
  parts: string;
  sent_parts: number;
}

/** Telegram's answer that the chat is gone for us: the user blocked the bot, left, or was deleted. */
function chatGone(error: GrammyError): boolean {
  return (
    error.error_code === 403 ||
    (error.error_code === 400 &&
      /chat not found|user is deactivated|PEER_ID_INVALID/i.test(error.description))
  );
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
    const outcome = await runJob(this.options.db, this.job(), this.options.log);
    if (outcome.status === 'failed') throw outcome.error;
    if (outcome.status === 'skipped') throw new Error(outcome.reason);
    return outcome.result;
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
    for (let i = d.sent_parts; i < parts.length; i++) {
      const last = i === parts.length - 1;
      for (let attempt = 0; ; attempt++) {
        try {
          await api.sendMessage(d.chat_id, parts[i]!, {
            parse_mode: 'HTML',
            link_preview_options: { is_disabled: true },
            reply_markup: last ? this.keyboard(d) : undefined,
          });
          break;
        } catch (error) {
          if (error instanceof GrammyError && error.error_code === 429 && attempt < MAX_RETRIES) {
            await this.sleep((error.parameters.retry_after ?? 1) * 1000);
            continue;
          }
          if (error instanceof GrammyError && chatGone(error)) {
            await db.transaction(async (tx) => {
              await tx.query(
                `update telegram_delivery set status = 'blocked', error = $3, updated_at = now()
                 where summary_id = $1 and chat_id = $2`,
                [d.summary_id, d.chat_id, error.description],
              );
              if (!d.is_channel)
                await tx.query('delete from telegram_subscription where chat_id = $1', [Number(d.chat_id)]);
            });
            log.warn(
              { chat: d.chat_id, error: error.description },
              'telegram: чат недоступен, подписка снята',
            );
            return 'blocked';
          }
          if (error instanceof GrammyError && error.error_code !== 429 && error.error_code < 500) {
            await db.query(
              `update telegram_delivery set status = 'failed', error = $3, updated_at = now()
               where summary_id = $1 and chat_id = $2`,
              [d.summary_id, d.chat_id, error.description],
            );
            log.warn({ chat: d.chat_id, error: error.description }, 'telegram: сообщение отклонено');
            return 'failed';
          }
          // Telegram unreachable, a 5xx, or 429s past the retries: keep it pending for the next run.
          const message =
            error instanceof HttpError || error instanceof Error ? error.message : String(error);
          await db.query(
            'update telegram_delivery set error = $3, updated_at = now() where summary_id = $1 and chat_id = $2',
            [d.summary_id, d.chat_id, message],
          );
          log.warn({ chat: d.chat_id, error: message }, 'telegram: отправка отложена');
          return 'unreachable';
        }
      }
      await db.query(
        `update telegram_delivery set sent_parts = $3::int, status = case when $3::int = $4::int then 'sent' else status end,
           error = null, updated_at = now() where summary_id = $1 and chat_id = $2`,
        [d.summary_id, d.chat_id, i + 1, parts.length],
      );
    }
    return 'sent';
  }
}
