import type { Developer, Project } from '@cena-metra/contract';
import { writeFilters } from '../../lib/dashboard-url';

export interface Hit {
  key: string;
  kind: 'Застройщик' | 'Проект';
  label: string;
  to: string;
}

/** Matches developers and projects by a case-insensitive substring; at most 10 of each. */
export function searchCatalog(
  q: string,
  developers: Developer[],
  projects: (Project & { developerId: number })[],
): Hit[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return [];
  const dashboard = (developerId: number, projectId: number | null) => {
    const params = writeFilters({
      developerId,
      projectId,
      chartType: 'NONE',
      from: null,
      to: null,
      smooth: true,
    });
    return `/${params.size ? `?${params}` : ''}`;
  };
  const devs = developers
    .filter((d) => d.name.toLowerCase().includes(needle))
    .slice(0, 10)
    .map((d) => ({ key: `d${d.id}`, kind: 'Застройщик' as const, label: d.name, to: dashboard(d.id, null) }));
  const byDeveloper = new Map(developers.map((d) => [d.id, d.name]));
  const projs = projects
    .filter((p) => p.name.toLowerCase().includes(needle))
    .slice(0, 10)
    .map((p) => ({
      key: `p${p.id}`,
      kind: 'Проект' as const,
      label: `${p.name} · ${byDeveloper.get(p.developerId) ?? ''}`,
      to: dashboard(p.developerId, p.id),
    }));
  return [...devs, ...projs];
}
