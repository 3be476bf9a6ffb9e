import { z } from 'zod';
import { idSchema } from './api.js';
import { sourceKindSchema } from './enums.js';
import { safeText } from './text.js';

// --- sources collected by schedule (DESIGN §10.8) ---
const sourceName = safeText('name', 100).trim().pipe(z.string().min(1, 'name: укажите название источника'));
const optionalName = (field: string) => safeText(field, 200).trim().nullable().optional();
/**
 * Headers a source's requests carry (a key, a cookie): names and values one-line text; the ones that frame
 * the request itself are the server's (DESIGN §12.1).
 */
export const FORBIDDEN_SOURCE_HEADERS = [
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
] as const;
/** Why a source may not set a header (null: it may). */
export function sourceHeaderProblem(name: string): string | null {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
    return `headers: «${name.slice(0, 60)}» — не имя заголовка`;
  if ((FORBIDDEN_SOURCE_HEADERS as readonly string[]).includes(name.toLowerCase()))
    return `headers: заголовок ${name} задаёт сам сервер, источник не может его менять`;
  return null;
}
const sourceHeaders = z
  .record(safeText('headers', 200), safeText('headers', 2000))
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      const problem = sourceHeaderProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [name] });
    }
  });
export const sourceInputSchema = z.object({
  name: sourceName,
  kind: sourceKindSchema,
  url: safeText('url', 2000).trim(),
  headers: sourceHeaders.default({}),
  developer: optionalName('developer'),
  project: optionalName('project'),
  enabled: z.boolean().default(true),
});
export type SourceInput = z.input<typeof sourceInputSchema>;
export const sourcePatchSchema = z.object({
  name: sourceName.optional(),
  kind: sourceKindSchema.optional(),
  url: safeText('url', 2000).trim().optional(),
  headers: sourceHeaders.optional(),
  developer: optionalName('developer'),
  project: optionalName('project'),
  enabled: z.boolean().optional(),
});
export const sourceParamsSchema = z.object({ id: idSchema('id') });
export const SOURCE_RUN_STATUSES = ['running', 'done', 'unchanged', 'failed', 'interrupted'] as const;
export const sourceRunSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(SOURCE_RUN_STATUSES),
  httpStatus: z.number().int().nullable(),
  pages: z.number().int(),
  flats: z.number().int(),
  snapshots: z.number().int(),
  /** snapshots of the run that are partial (DESIGN §10.4) */
  partial: z.number().int(),
  bytes: z.number().int(),
  error: z.string().nullable(),
});
export type SourceRun = z.infer<typeof sourceRunSchema>;
export const sourceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: sourceKindSchema,
  url: z.string(),
  /** header names only: values may be secrets */
  headerNames: z.array(z.string()),
  developer: z.string().nullable(),
  project: z.string().nullable(),
  enabled: z.boolean(),
  lastRun: sourceRunSchema.nullable(),
  /** the last two runs failed (DESIGN §10.8: reported) */
  failing: z.boolean(),
  /** when `serve` collects it next (ISO time), null when disabled */
  nextRun: z.string().nullable(),
});
export type SourceView = z.infer<typeof sourceSchema>;
export const sourcesResponseSchema = z.array(sourceSchema);
export const sourceRunsResponseSchema = z.array(sourceRunSchema);
