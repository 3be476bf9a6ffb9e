import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
  auditActionSchema,
} from '@cena-metra/contract';
import { mdiClipboardTextClock, mdiDownload } from '@mdi/js';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { saveFile } from '../../components/chart/export';
import { ColumnTable } from '../../components/column-table';
import { Pager } from '../../components/pager';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, inputClass, Section, SectionTitle, Select } from '../../components/ui';
import type { Column } from '../../lib/columns';
import { auditChange, dateTime } from '../../lib/team-text';
import { useTitle } from '../../lib/use-title';
import { auditCsv, auditParams, useAudit } from './api';

const PAGE_SIZE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of the address: what it holds of them, the rest left out. */
function readFilters(params: URLSearchParams): Omit<AuditQuery, 'offset' | 'limit'> & { page: number } {
  const action = auditActionSchema.safeParse(params.get('action'));
  const day = (k: string) => (DAY.test(params.get(k) ?? '') ? params.get(k)! : undefined);
  const page = Number(params.get('page'));
  return {
    from: day('from'),
    to: day('to'),
    actor: params.get('actor')?.slice(0, 100) || undefined,
    action: action.success ? action.data : undefined,
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The log, newest first: when, who from where, what was done to what, and what changed. */
const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  {
    key: 'at',
    label: 'Когда',
    type: 'text',
    value: (r) => dateTime(r.at),
    className: () => 'whitespace-nowrap',
  },
  { key: 'actor', label: 'Кто', type: 'text', value: (r) => r.actor },
  {
    key: 'address',
    label: 'Адрес',
    type: 'text',
    value: (r) => r.address,
    className: () => 'whitespace-nowrap text-gray-500',
  },
  {
    key: 'action',
    label: 'Действие',
    type: 'text',
    value: (r) => AUDIT_ACTIONS[r.action as AuditAction] ?? r.action,
    cell: (r) => (
      <>
        {AUDIT_ACTIONS[r.action as AuditAction] ?? r.action}
        {r.count > 1 && (
          <span className="ml-1 text-gray-500" title="столько раз за эту минуту с этого адреса">
            × {r.count}
          </span>
        )}
      </>
    ),
  },
  { key: 'target', label: 'Объект', type: 'text', value: (r) => r.target },
  {
    key: 'change',
    label: 'Изменение',
    type: 'text',
    value: (r) => auditChange(r.before, r.after).join('; ') || null,
    className: () => 'text-sm',
    cell: (r) =>
      auditChange(r.before, r.after).map((line) => (
        <div key={line} className="max-w-md truncate" title={line}>
          {line}
        </div>
      )),
  },
];

/**
 * «Журнал» (DESIGN §11.5), for admins: who did what and when, from which address, before → after; filtered
 * by period, person and action, paged, and downloaded as CSV. Nothing here changes it.
 */
export function AuditPage() {
  useTitle('Журнал');
  const [params, setParams] = useSearchParams();
  const { page, ...filters } = readFilters(params);
  const audit = useAudit({ ...filters, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const [actor, setActor] = useState(filters.actor ?? '');
  const [downloading, setDownloading] = useState(false);
  const update = (next: Record<string, string | undefined>) => {
    const merged = { ...filters, ...next, page: next.page };
    setParams(auditParams(merged as Partial<AuditQuery>) as Record<string, string>);
  };
  const pages = Math.max(1, Math.ceil((audit.data?.total ?? 0) / PAGE_SIZE));
  const download = async () => {
    setDownloading(true);
    try {
      saveFile('журнал.csv', await auditCsv(filters));
    } catch (error) {
      toast((error as Error).message);
    } finally {
      setDownloading(false);
    }
  };
  const dayField = (key: 'from' | 'to', label: string) => (
    <label className="block">
      <span className="mb-1 block font-semibold text-sm">{label}</span>
      <input
        type="date"
        className={inputClass}
        value={filters[key] ?? ''}
        data-testid={`audit-${key}`}
        onChange={(e) => update({ [key]: e.target.value || undefined })}
      />
    </label>
  );
  return (
    <Section>
      <SectionTitle icon={mdiClipboardTextClock}>Журнал</SectionTitle>
      <p className="mb-6 max-w-3xl text-gray-600 dark:text-slate-300">
        Кто, когда и что менял: пользователи и роли, источники, загрузки и сборы, места проектов. Записи не
        изменяются и не удаляются.
      </p>
      <div className="mb-4 grid grid-cols-1 gap-4 md:grid-cols-4">
        {dayField('from', 'С')}
        {dayField('to', 'По')}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            update({ actor: actor.trim() || undefined });
          }}
        >
          <label className="block">
            <span className="mb-1 block font-semibold text-sm">Кто (Enter — найти)</span>
            <input
              className={inputClass}
              value={actor}
              placeholder="имя пользователя"
              data-testid="audit-actor"
              onChange={(e) => setActor(e.target.value)}
              onBlur={() => update({ actor: actor.trim() || undefined })}
            />
          </label>
        </form>
        <Select
          label="Действие"
          value={filters.action ?? ''}
          onChange={(v) => update({ action: v || undefined })}
          options={[
            { value: '', label: 'Все' },
            ...Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label })),
          ]}
          testId="audit-action"
        />
      </div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p data-testid="audit-total">
          Записей: <b>{audit.data?.total.toLocaleString('ru-RU') ?? '…'}</b>
        </p>
        <Button
          small
          icon={mdiDownload}
          data-testid="audit-csv"
          disabled={downloading || !audit.data?.total}
          onClick={download}
        >
          {downloading ? 'Готовлю CSV…' : 'CSV'}
        </Button>
      </div>
      <DataState
        loading={audit.isLoading}
        error={audit.error}
        empty={audit.data?.total === 0}
        emptyText="Записей по этому фильтру нет."
      >
        <div className="overflow-x-auto rounded-2xl bg-white dark:bg-slate-900/70">
          <ColumnTable
            columns={AUDIT_COLUMNS}
            rows={audit.data?.rows ?? []}
            rowKey={(r) => r.id}
            rowAttributes={(r) => ({ 'data-action': r.action })}
            testId="audit-table"
          />
          {pages > 1 && (
            <Pager
              page={page}
              pages={pages}
              onPage={(p) => update({ page: String(p) })}
              testId="audit-pager"
            />
          )}
        </div>
      </DataState>
    </Section>
  );
}
