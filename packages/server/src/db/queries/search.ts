import type { SearchResponse } from '@cena-metra/contract';
import type { Db } from '../driver.js';

const LIMIT = 10;

/** `%text%` for ILIKE with the user's % and _ taken literally. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Developers and projects by name, flats by internal id or external id (at most 10 of each). */
export async function search(db: Db, q: string): Promise<SearchResponse> {
  const like = contains(q);
  const developers = await db.query<{ id: number; name: string }>(
    `select id, name from developer where name ilike $1 order by lower(name), id limit ${LIMIT}`,
    [like],
  );
  const projects = await db.query<SearchResponse['projects'][number]>(
    `select p.id, p.name, d.id as "developerId", d.name as "developerName"
     from project p join developer d on d.id = p.developer_id
     where p.name ilike $1 order by lower(p.name), p.id limit ${LIMIT}`,
    [like],
  );
  const numeric = /^\d{1,9}$/.test(q) ? Number(q) : null;
  const flats = await db.query<SearchResponse['flats'][number]>(
    `select f.id as "flatId", f.external_id as "externalId", p.id as "projectId", p.name as "projectName",
            d.name as "developerName"
     from flat f join project p on p.id = f.project_id join developer d on d.id = p.developer_id
     where f.id = $1 or f.external_id = $2
     order by f.id limit ${LIMIT}`,
    [numeric, q],
  );
  return { developers, projects, flats };
}
