import {
  countOf,
  FLATS,
  type FlatCard,
  facingLabel,
  flatPriceChanges,
  formatChange,
  formatLongDate,
  formatRoubles,
  PROJECTS,
  roomsLabel,
} from '@cena-metra/contract';
import type { DigestCut, DigestProject, SummaryDay } from '../db/queries/bot.js';

export type { DigestCut, DigestProject };

/** Telegram's limit on one message's text. */
export const TELEGRAM_LIMIT = 4096;

/** Text for Telegram's HTML parse mode: the three characters it reserves, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** What one daily digest says: the projects of a summary (all, or a subscriber's) and the biggest cuts. */
export interface Digest {
  summaryId: number;
  date: string;
  projects: DigestProject[];
  cuts: DigestCut[];
}

const changed = (p: DigestProject) =>
  p.isNewProject || p.newFlats + p.removedFlats + p.priceUp + p.priceDown > 0;
const sum = (ps: DigestProject[], key: 'newFlats' | 'removedFlats' | 'priceUp' | 'priceDown') =>
  ps.reduce((s, p) => s + p[key], 0);

/**
 * The digest as blocks of HTML (each block closes its own tags, so a message may be split between any
 * two blocks or lines): a header with the totals, a block per project that changed, the count of the
 * projects without changes, and the biggest price cuts.
 */
export function digestBlocks(d: Digest): string[] {
  const blocks = [
    `<b>Ежедневная сводка · ${escapeHtml(formatLongDate(d.date))}</b>\n` +
      `${countOf(d.projects.length, PROJECTS)} · новых квартир: ${sum(d.projects, 'newFlats')} · ` +
      `снято: ${sum(d.projects, 'removedFlats')} · подорожали: ${sum(d.projects, 'priceUp')} · ` +
      `подешевели: ${sum(d.projects, 'priceDown')}`,
  ];
  const active = d.projects.filter(changed);
  for (const p of active) {
    const title = `<b>${escapeHtml(p.developerName)} · ${escapeHtml(p.projectName)}</b>`;
    if (p.isNewProject) {
      blocks.push(`${title}\nновый проект: в продаже ${countOf(p.flatsCount, FLATS)}`);
      continue;
    }
    const avg = p.avgChangePercent === null ? '' : ` · в среднем ${formatChange(p.avgChangePercent)}`;
    blocks.push(
      `${title}\nновые ${p.newFlats} · сняты ${p.removedFlats} · дороже ${p.priceUp} · дешевле ${p.priceDown}${avg}`,
    );
  }
  const quiet = d.projects.length - active.length;
  if (quiet > 0) blocks.push(`Без изменений: ${countOf(quiet, PROJECTS)}.`);
  if (d.cuts.length) {
    blocks.push(
      [
        '<b>Крупнейшие снижения</b>',
        ...d.cuts.map(
          (c) =>
            `• ${escapeHtml(c.developerName)} · ${escapeHtml(c.projectName)}, № ${c.flatId}, ` +
            `${roomsLabel(c.rooms)}, ${c.area.toLocaleString('ru-RU')} м²: ` +
            `${formatRoubles(c.oldPrice)} → ${formatRoubles(c.newPrice)} ₽ (${formatChange(c.changePercent)})`,
        ),
      ].join('\n'),
    );
  }
  return blocks;
}

/** Cuts a line longer than the limit, never inside an HTML entity. */
function cutLine(line: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > limit) {
    let at = limit;
    const amp = rest.lastIndexOf('&', at - 1);
    if (amp > 0 && !rest.slice(amp, at).includes(';')) at = amp;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  pieces.push(rest);
  return pieces;
}

/**
 * Joins blocks into messages of at most `limit` characters: blocks stay whole when they fit (separated by
 * a blank line), a block too long is split between its lines, a line too long is cut.
 */
export function splitMessage(blocks: string[], limit = TELEGRAM_LIMIT): string[] {
  const parts: string[] = [];
  let current = '';
  const push = (piece: string, separator: string) => {
    if (current && current.length + separator.length + piece.length <= limit) current += separator + piece;
    else {
      if (current) parts.push(current);
      current = piece;
    }
  };
  for (const block of blocks) {
    if (block.length <= limit) {
      push(block, '\n\n');
      continue;
    }
    let first = true;
    for (const line of block.split('\n'))
      for (const piece of cutLine(line, limit)) {
        push(piece, first ? '\n\n' : '\n');
        first = false;
      }
  }
  if (current) parts.push(current);
  return parts;
}

/** A flat's card for /flat: what it is, where, its price now, and its last price changes. */
export function flatCardText(card: FlatCard, lastChanges = 5): string {
  const r = card.record;
  const lines = [
    `<b>Квартира № ${card.flatId}</b> · ${escapeHtml(card.developerName)} · ${escapeHtml(card.projectName)}`,
    `Корпус ${escapeHtml(r.building)}${r.section ? `, секция ${escapeHtml(r.section)}` : ''}${
      r.floor === null ? '' : `, этаж ${r.floor}`
    }${r.number ? `, № ${escapeHtml(r.number)}` : ''}`,
    `${roomsLabel(r.rooms)}, ${r.area.toLocaleString('ru-RU')} м², ${facingLabel(r.facing)}`,
    `Цена: <b>${formatRoubles(r.price)} ₽</b> (${formatRoubles(r.meterPrice)} ₽/м²)`,
    card.status === 'ACTIVE'
      ? `В продаже с ${formatLongDate(card.firstSeen)}`
      : `Снята с продажи, последний раз в прайсе ${formatLongDate(card.lastSeen)}`,
  ];
  const changes = flatPriceChanges(card)
    .map((c, i, all) => ({ ...c, previous: all[i - 1]?.price }))
    .slice(1)
    .slice(-lastChanges)
    .reverse();
  if (changes.length) {
    lines.push('', '<b>Последние изменения</b>');
    for (const c of changes)
      lines.push(
        `${formatLongDate(c.date)}: ${formatRoubles(c.previous!)} → ${formatRoubles(c.price)} ₽ (${formatChange(c.changePercent)})`,
      );
  } else lines.push('', 'Цена не менялась.');
  return lines.join('\n');
}

/** How many of the biggest cuts a digest lists. */
const CUTS = 5;

/**
 * The digest of a summary for a set of projects (null = all). Null when none of the projects had a
 * snapshot that day: such a subscriber gets no message.
 */
export function digestOf(day: SummaryDay, projectIds: number[] | null): Digest | null {
  const mine = (id: number) => projectIds === null || projectIds.includes(id);
  const projects = day.projects.filter((p) => mine(p.projectId));
  if (projects.length === 0) return null;
  const cuts = day.cuts
    .filter((c) => mine(c.projectId))
    .slice(0, CUTS)
    .map(({ projectId: _projectId, ...cut }) => cut);
  return { summaryId: day.summaryId, date: day.date, projects, cuts };
}
