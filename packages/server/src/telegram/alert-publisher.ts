import { type Alert, alertText, CHANGES, countOf, formatLongDate } from '@cena-metra/contract';
import type { Api } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Db } from '../db/driver.js';
import {
  alertDigestFailed,
  alertDigestProgress,
  pendingAlertDigests,
  planAlertDigest,
  unsentAlerts,
  usersWithSettledAlerts,
} from '../db/queries/deliveries.js';
import { listWatches } from '../db/queries/watch.js';
import { type Job, type JobLog, runJobOnce } from '../jobs/jobs.js';
import { todayIn } from '../lib/days.js';
import { escapeHtml, splitMessage } from './format.js';
import { sendParts } from './send.js';

/** The alert publisher's job name: its lock and its run records. */
export const ALERTS_JOB = 'telegram-alerts';
/** Lines one watched item gets in a message; the rest are counted. */
const LINES_PER_ITEM = 15;
/** Buttons under one part (Telegram takes up to 100); a part of 4,096 characters holds fewer items. */
const BUTTONS_PER_PART = 50;

export interface AlertPublisherOptions {
  db: Db;
  api: Api;
  /** PUBLIC_URL: where the buttons lead (no buttons without it). */
  publicUrl?: string;
  /** A user's alerts go out once no new one has come for this long. */
  settleSeconds: number;
  /** The day of a message is the date here (COLLECT_TZ). */
  timeZone: string;
  log: JobLog;
  sleep?: (ms: number) => Promise<void>;
  /** The message's day (tests step through days); by default today in `timeZone`. */
  today?: () => string;
}

export interface AlertPublishReport {
  planned: number;
  sent: number;
  blocked: number;
  failed: number;
  pending: number;
}

/** One part of a message, with the buttons to the items it tells of. */
interface Part {
  text: string;
  buttons: { text: string; path: string; open: boolean }[];
}

/** One watched item's alerts as a block of HTML, and its button. */
export function alertBlock(
  label: string,
  watch: { id: number; kind: 'flat' | 'segment'; flatId: number | null },
  alerts: Alert[],
): { text: string; button: Part['buttons'][number] } {
  const lines = [`<b>${escapeHtml(label)}</b>`];
  for (const a of alerts.slice(0, LINES_PER_ITEM))
    lines.push(`${formatLongDate(a.day)}: ${escapeHtml(alertText(a, watch.kind === 'segment'))}`);
  if (alerts.length > LINES_PER_ITEM) lines.push(`…и ещё ${alerts.length - LINES_PER_ITEM}`);
  const button =
    watch.kind === 'flat'
      ? { text: `Квартира № ${watch.flatId}`, path: `/summary/flat/${watch.flatId}`, open: true }
      : {
          text: label.length > 40 ? `${label.slice(0, 39)}…` : label,
          path: `/watchlist?watch=${watch.id}`,
          open: false,
        };
  return { text: lines.join('\n'), button };
}

/**
 * Sends each linked user their watchlist alerts once a day in one message (split at 4,096 characters),
 * like the daily summary (publisher.ts): planning inserts the user's message of the day and marks its
 * alerts in one transaction — one message per (user, day), so two processes or a restart never plan it
 * twice — and sending advances sent_parts after every part Telegram accepts, under the job's lock.
 * Alerts that come after the day's message wait for the next day's.
 */
export class AlertPublisher {
  private readonly sleep: (ms: number) => Promise<void>;
  constructor(private readonly options: AlertPublisherOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
  }

  job(everySeconds?: number): Job<AlertPublishReport> {
    return {
      name: ALERTS_JOB,
      schedule: everySeconds ? { everySeconds } : undefined,
      run: async () => ({ planned: await this.plan(), ...(await this.deliverPending()) }),
    };
  }

  /** One run as the job runner makes it; throws what it failed with. */
  async run(): Promise<AlertPublishReport> {
    return runJobOnce(this.options.db, this.job(), this.options.log);
  }

  /** Plans today's message of every linked user with settled alerts not yet sent; returns how many. */
  async plan(): Promise<number> {
    const { db, settleSeconds, timeZone, log } = this.options;
    const day = this.options.today?.() ?? todayIn(timeZone);
    const users = await usersWithSettledAlerts(db, day, settleSeconds);
    let planned = 0;
    for (const u of users) {
      const alerts = await unsentAlerts(db, u.id);
      const watches = new Map((await listWatches(db, u.id)).map((w) => [w.id, w]));
      const byWatch = new Map<number, Alert[]>();
      for (const a of alerts) byWatch.set(a.watchId, [...(byWatch.get(a.watchId) ?? []), a]);
      const blocks = [...byWatch]
        .filter(([id]) => watches.has(id))
        .map(([id, list]) => alertBlock(watches.get(id)!.label, watches.get(id)!, list));
      const header = `<b>Избранное: ${countOf(alerts.length, CHANGES)}</b>`;
      const texts = splitMessage([header, ...blocks.map((b) => b.text)]);
      // each part gets the buttons of the items whose block begins in it
      const parts: Part[] = texts.map((text) => ({
        text,
        buttons: blocks
          .filter((b) => text.includes(b.text.split('\n')[0]!))
          .map((b) => b.button)
          .slice(0, BUTTONS_PER_PART),
      }));
      const inserted = await planAlertDigest(
        db,
        u,
        day,
        JSON.stringify(parts),
        alerts.map((a) => a.id),
      );
      if (inserted) planned++;
    }
    if (planned) log.info({ planned, day }, 'telegram: уведомления об избранном запланированы');
    return planned;
  }

  private keyboard(part: Part, chatId: number): InlineKeyboardMarkup | undefined {
    const { publicUrl } = this.options;
    if (!publicUrl || part.buttons.length === 0) return undefined;
    const root = publicUrl.replace(/\/+$/, '');
    return {
      inline_keyboard: part.buttons.map((b) => [
        // a WebApp opens in a private chat only, and only the pages open without signing in
        b.open && chatId > 0
          ? { text: b.text, web_app: { url: `${root}${b.path}` } }
          : { text: b.text, url: `${root}${b.path}` },
      ]),
    };
  }

  private async deliverPending(): Promise<Omit<AlertPublishReport, 'planned'>> {
    const { db, api, log } = this.options;
    const report = { sent: 0, blocked: 0, failed: 0, pending: 0 };
    const digests = await pendingAlertDigests(db);
    let reachable = true;
    for (const d of digests) {
      if (!reachable) {
        report.pending++;
        continue;
      }
      const parts: Part[] = JSON.parse(d.parts);
      const outcome = await sendParts({
        api,
        chatId: String(d.chat_id),
        parts: parts.map((p) => p.text),
        from: d.sent_parts,
        keyboard: (i) => this.keyboard(parts[i]!, d.chat_id),
        sleep: this.sleep,
        sent: async (i) => {
          await alertDigestProgress(db, d, i + 1, parts.length);
        },
      });
      if (outcome.status === 'sent') report.sent++;
      else if (outcome.status === 'unreachable') {
        reachable = false;
        report.pending++;
        await alertDigestFailed(db, d, 'unreachable', outcome.error);
        log.warn({ chat: d.chat_id, error: outcome.error }, 'telegram: уведомления отложены');
      } else {
        report[outcome.status]++;
        await alertDigestFailed(db, d, outcome.status, outcome.error);
        log.warn({ chat: d.chat_id, error: outcome.error }, 'telegram: уведомления не доставлены');
      }
    }
    if (digests.length) log.info(report, 'telegram: уведомления об избранном');
    return report;
  }
}
