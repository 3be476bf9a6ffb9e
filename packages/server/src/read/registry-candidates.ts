import type { RegistryCandidatesResponse } from '@cena-metra/contract';
import type { Db } from '../db/driver.js';
import { projectClassRow } from '../db/queries/classes.js';
import { unmatchedObjects } from '../db/queries/registry.js';
import { NotFoundError } from '../lib/errors.js';
import { distanceKm, normaliseProjectName } from '../registry/match.js';
import { stateOf } from '../registry/state.js';

/** Objects shown as candidates at most, and how far away one without the project's name may be, km. */
export const CANDIDATES = 20;
export const CANDIDATE_KM = 10;

/**
 * The registry-only objects an admin may link to a project (DESIGN §12.3): those of the project's ЖК name
 * (normalised as matching does) anywhere, and those within 10 km, the same name first, then the nearest.
 */
export async function registryCandidates(db: Db, projectId: number): Promise<RegistryCandidatesResponse> {
  const project = await projectClassRow(db, projectId);
  if (!project) throw new NotFoundError(`проект ${projectId} не найден`);
  const name = normaliseProjectName(project.name);
  const { latitude: lat, longitude: lon } = project;
  const out: RegistryCandidatesResponse['objects'] = [];
  for (const o of await unmatchedObjects(db)) {
    const eff = stateOf(o.state).eff;
    const sameName = !!eff.name && normaliseProjectName(eff.name) === name;
    const km =
      lat !== null && lon !== null && eff.lat !== undefined && eff.lon !== undefined
        ? Math.round(distanceKm(lat, lon, eff.lat, eff.lon) * 100) / 100
        : null;
    if (!sameName && (km === null || km > CANDIDATE_KM)) continue;
    out.push({
      objId: o.obj_id,
      name: eff.name ?? null,
      buildingName: eff.building ?? null,
      developer: eff.devName ?? eff.group ?? eff.devFullName ?? null,
      address: eff.address ?? null,
      flats: eff.flats ?? null,
      km,
      sameName,
    });
  }
  out.sort(
    (a, b) =>
      Number(b.sameName) - Number(a.sameName) ||
      (a.km ?? Number.POSITIVE_INFINITY) - (b.km ?? Number.POSITIVE_INFINITY) ||
      a.objId - b.objId,
  );
  return { objects: out.slice(0, CANDIDATES) };
}
