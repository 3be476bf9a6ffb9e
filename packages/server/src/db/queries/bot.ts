import { DEFAULT_CARRY_DAYS } from '../../analytics/types.js';
import type { Db } from '../driver.js';
import { getSummary } from './summaries.js';

/** Subscription to every project (project_id 0 in telegram_subscription). */
export const ALL_PROJECTS = 0;

export interface DigestProject {
  projectId: number;
  projectName: string;
  developerName: string;
  isNewProject: boolean;
  flatsCount: number;
  newFlats: number;
  removedFlats: number;
  priceUp: number;
  priceDown: number;
  avgChangePercent: number | null;
}

export interface DigestCut {
  flatId: number;
  projectName: string;
  developerName: string;
  rooms: number;
  area: number;
  oldPrice: number;
  newPrice: number;
  changePercent: number;
}

/** A summary's projects and its price cuts (largest first): read once, then cut per subscriber. */
export interface SummaryDay {
  summaryId: number;
  date: string;
  projects: DigestProject[];
  cuts: (DigestCut & { projectId: number })[];
}

export async function loadSummaryDay(db: Db, summaryId: number): Promise<SummaryDay> {
  // the digest says nothing of gaps: the default limit stands in for the configured one
  const summary = await getSummary(db, summaryId, DEFAULT_CARRY_DAYS);
  const cuts = await db.query<DigestCut & { projectId: number }>(
    `select e.flat_id as "flatId", e.project_id as "projectId", p.name as "projectName",
            d.name as "developerName", e.rooms, e.area, e.old_price as "oldPrice", e.new_price as "newPrice",
            e.change_percent as "changePercent"
     from flat_event e join project p on p.id = e.project_id join developer d on d.id = p.developer_id
     where e.day = $1 and e.kind = 'PRICE_DOWN' order by e.change_percent, e.flat_id`,
    [summary.date],
  );
  return { summaryId, date: summary.date, projects: summary.projects, cuts };
}

/** The newest summary, if any. */
export async function latestSummary(db: Db): Promise<{ id: number; date: string; updatedAt: string } | null> {
  const [row] = await db.query<{ id: number; date: string; updatedAt: string }>(
    `select id, date::text as date, updated_at::text as "updatedAt" from daily_summary
     where exists (select 1 from summary_project sp where sp.date = daily_summary.date)
     order by date desc limit 1`,
  );
  return row ?? null;
}

/** A chat's subscriptions: null when none, 'all', or the projects it follows. */
export async function chatSubscription(db: Db, chatId: number): Promise<'all' | number[] | null> {
  const rows = await db.query<{ project_id: number }>(
    'select project_id from telegram_subscription where chat_id = $1 order by project_id',
    [chatId],
  );
  if (rows.length === 0) return null;
  if (rows.some((r) => r.project_id === ALL_PROJECTS)) return 'all';
  return rows.map((r) => r.project_id);
}

/** Subscribes a chat to every project (replacing any single-project rows). */
export async function subscribeAll(db: Db, chatId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from telegram_subscription where chat_id = $1', [chatId]);
    await tx.query('insert into telegram_subscription (chat_id, project_id) values ($1, $2)', [
      chatId,
      ALL_PROJECTS,
    ]);
  });
}

/** Subscribes a chat to one project; a subscription to every project becomes one to this project. */
export async function subscribeProject(db: Db, chatId: number, projectId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('delete from telegram_subscription where chat_id = $1 and project_id = $2', [
      chatId,
      ALL_PROJECTS,
    ]);
    await tx.query(
      'insert into telegram_subscription (chat_id, project_id) values ($1, $2) on conflict do nothing',
      [chatId, projectId],
    );
  });
}

/** Ends a chat's subscriptions; returns how many rows it had. */
export async function unsubscribe(db: Db, chatId: number): Promise<number> {
  const rows = await db.query('delete from telegram_subscription where chat_id = $1 returning chat_id', [
    chatId,
  ]);
  return rows.length;
}

export interface ProjectMatch {
  id: number;
  name: string;
  developerName: string;
}

/** Projects by id, or by name (exact first, then containing the words), for /subscribe. */
export async function findProjects(db: Db, query: string): Promise<ProjectMatch[]> {
  const q = query.trim();
  const select = `select p.id, p.name, d.name as "developerName" from project p join developer d on d.id = p.developer_id`;
  if (/^\d{1,9}$/.test(q)) return db.query<ProjectMatch>(`${select} where p.id = $1`, [Number(q)]);
  const exact = await db.query<ProjectMatch>(`${select} where lower(p.name) = lower($1) order by p.id`, [q]);
  if (exact.length) return exact;
  return db.query<ProjectMatch>(
    `${select} where strpos(lower(p.name), lower($1)) > 0 order by lower(p.name), p.id limit 10`,
    [q],
  );
}

/** The names of a chat's projects, for the answers of /subscribe and /start. */
export async function projectNames(db: Db, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ name: string }>(
    'select name from project where id = any($1) order by lower(name)',
    [ids],
  );
  return rows.map((r) => r.name);
}
