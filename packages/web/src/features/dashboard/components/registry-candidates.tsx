import { formatDecimal2 } from '@cena-metra/contract';
import { Button } from '../../../components/ui';
import { useRegistryCandidates } from '../api';

/**
 * Admins: the registry-only objects that may be this project's (DESIGN §12.3) — of its ЖК name anywhere or
 * within 10 km, the same name first, then the nearest — each linked with one click.
 */
export function RegistryCandidates({
  projectId,
  onLink,
}: {
  projectId: number | null;
  onLink: (objId: number) => void;
}) {
  const q = useRegistryCandidates(projectId);
  const objects = q.data?.objects ?? [];
  if (!q.data) return null;
  return (
    <div className="mt-4" data-testid="registry-candidates">
      <h3 className="mb-2 font-semibold">Объекты реестра без проекта рядом</h3>
      {objects.length === 0 ? (
        <p className="text-gray-500 text-sm">
          Нет объектов без проекта с тем же названием или в пределах 10 км.
        </p>
      ) : (
        <ul className="space-y-1 text-sm">
          {objects.map((o) => (
            <li key={o.objId} className="flex flex-wrap items-center gap-2" data-obj={o.objId}>
              <Button small onClick={() => onLink(o.objId)} data-testid="registry-candidate-link">
                Привязать
              </Button>
              <span>
                № {o.objId} · {o.name ?? o.buildingName ?? 'без названия'}
                {o.developer && ` · ${o.developer}`}
                {o.flats !== null && ` · ${o.flats} кв.`}
                {o.km !== null && ` · ${formatDecimal2(o.km)} км`}
                {o.sameName && (
                  <span className="ml-2 rounded-full border border-emerald-500 px-2 text-emerald-700 text-xs">
                    то же название
                  </span>
                )}
              </span>
              {o.address && <span className="w-full pl-24 text-gray-500 text-xs">{o.address}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
