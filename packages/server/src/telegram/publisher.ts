import type { Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Db } from '../db/driver.js';
import { ALL_PROJECTS, latestSummary, loadSummaryDay } from '../db/queries/bot.js';
import {
  closeFinishedPosts,
  type Delivery,
  deliveryFailed,
  deliveryProgress,
  pendingDeliveries,
  planDeliveries,
  subscribers,
  summarySettled,
} from '../db/queries/deliveries.js';
import { type Job, type JobLog, runJobOnce } from '../jobs/jobs.js';
import { digestBlocks, digestOf, splitMessage } from './format.js';
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
    if (!(await summarySettled(db, latest.id, settleSeconds))) return null;
    return (await this.plan(latest.id)) ? latest.id : null;
  }

  /** Plans one summary's deliveries; false when it had been planned before. */
  async plan(summaryId: number): Promise<boolean> {
    const { db, channelId, log } = this.options;
    const targets: { chat: string; isChannel: boolean; projects: number[] | null }[] = [];
    if (channelId) targets.push({ chat: channelId, isChannel: true, projects: null });
    for (const s of await subscribers(db))
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
    const inserted = await planDeliveries(db, summaryId, rows);
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
    const deliveries = await pendingDeliveries(db);
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
    await closeFinishedPosts(db);
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
        await deliveryProgress(db, d, i + 1, parts.length);
      },
    });
    if (outcome.status === 'sent') return 'sent';
    await deliveryFailed(db, d, outcome.status, outcome.error);
    const said = {
      blocked: 'telegram: чат недоступен, подписка снята',
      failed: 'telegram: сообщение отклонено',
      unreachable: 'telegram: отправка отложена',
    } as const;
    log.warn({ chat: d.chat_id, error: outcome.error }, said[outcome.status]);
    return outcome.status;
  }
}
