/**
 * SQL for the days between a project's snapshot on `day` and its previous snapshot (DESIGN §10.1), null
 * on its first: the `gapDays` of a summary line and of each event that day.
 */
export function gapDaysSql(projectId: string, day: string): string {
  return `(${day} - (select max(g.date) from snapshot g where g.project_id = ${projectId} and g.date < ${day}))`;
}
