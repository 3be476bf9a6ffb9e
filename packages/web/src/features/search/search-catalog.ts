import type { SearchResponse } from '@cena-metra/contract';
import { dashboardUrl } from '../../lib/dashboard-url';

export type HitKind = 'Застройщики' | 'Проекты' | 'Квартиры';

export interface Hit {
  key: string;
  kind: HitKind;
  label: string;
  to: string;
}

/** The server's search answer as one list in groups: developers and projects open the dashboard, flats their card. */
export function searchHits(res: SearchResponse): Hit[] {
  return [
    ...res.developers.map((d) => ({
      key: `d${d.id}`,
      kind: 'Застройщики' as const,
      label: d.name,
      to: dashboardUrl(d.id, null),
    })),
    ...res.projects.map((p) => ({
      key: `p${p.id}`,
      kind: 'Проекты' as const,
      label: `${p.name} · ${p.developerName}`,
      to: dashboardUrl(p.developerId, p.id),
    })),
    ...res.flats.map((f) => ({
      key: `f${f.flatId}`,
      kind: 'Квартиры' as const,
      label: `№ ${f.flatId} (${f.externalId}) · ${f.projectName}`,
      to: `/flat?flatId=${f.flatId}`,
    })),
  ];
}
