import { formatChange, formatRoubles, type MarketMapResponse } from '@cena-metra/contract';
import { mdiFullscreen, mdiImage } from '@mdi/js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CardMenu } from '../../components/chart/chart-card';
import { saveFile } from '../../components/chart/export';
import { Switch } from '../../components/controls';
import { toast } from '../../components/toast';
import { Select } from '../../components/ui';
import { useDarkMode } from '../../lib/dark-mode';
import { dashboardUrl } from '../../lib/dashboard-url';
import { useMapConfig } from './api';
import { MAP_COLOUR_LABELS, type MapColour, mapPoints, pointTooltip } from './lib/map-option';
import type { MapHandle } from './map/map-canvas';
import { type Bounds, colourRange, GREY, pointCollection, SCALE, visibleIds } from './map/map-data';
import { mapPicture } from './map/map-picture';

// MapLibre and the basemap's style: loaded with «Рынок», not with the dashboard — asked for as the card is first
// made, right after the page has sent its requests (its ~1 MB of code parsed, and its worker started, while the
// page waits for its answers, not before the requests leave), not when the page's data have come. Held here once
// loaded and drawn at once (not through `lazy`, whose Suspense shows its content again only after a throttle)
type MapCanvasModule = typeof import('./map/map-canvas');
let loadedMapCanvas: MapCanvasModule | null = null;
let mapCanvasLoad: Promise<MapCanvasModule> | null = null;
const loadMapCanvas = () => {
  mapCanvasLoad ??= import('./map/map-canvas').then((module) => {
    loadedMapCanvas = module;
    return module;
  });
  return mapCanvasLoad;
};

/** The map's module: at once when it has loaded, else once it does (an error: the card says it). */
function useMapCanvas(): { module: MapCanvasModule | null; error: Error | null } {
  const [state, setState] = useState<{ module: MapCanvasModule | null; error: Error | null }>({
    module: loadedMapCanvas,
    error: null,
  });
  useEffect(() => {
    if (state.module) return;
    let live = true;
    // after this commit's effects: the page's queries (its parent's effects, run after the card's) sent first
    const timer = setTimeout(() =>
      loadMapCanvas().then(
        (module) => live && setState({ module, error: null }),
        (error: Error) => live && setState({ module: null, error }),
      ),
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [state.module]);
  return state;
}

/**
 * «Рынок»'s map (DESIGN §11.3, issue 46): the projects on a real map — streets and borders from the operator's
 * PMTiles or style, else the countries' outlines — clustered at low zoom, a circle's area by its stock and
 * its colour by the average ppm or the index's change, with a legend and a tooltip; a click opens the
 * project. «Только видимые» narrows the table to the projects in the map's view. PNG with its legend.
 */
export function MarketMap({
  map,
  loading = false,
  fileName,
  onVisible,
}: {
  /** the selection's map in columns (POST /api/market/map); none until it comes */
  map: MarketMapResponse | undefined;
  /** the page's data not come yet: the map is made (its style, worker and basemap) and waits for them */
  loading?: boolean;
  fileName: string;
  /** the ids in the map's view while «только видимые» is on; null when it is off */
  onVisible?: (ids: Set<number> | null) => void;
}) {
  const dark = useDarkMode();
  const navigate = useNavigate();
  const config = useMapConfig();
  const canvas = useMapCanvas();
  const [colour, setColour] = useState<MapColour>('avgMeterPrice');
  const [onlyVisible, setOnlyVisible] = useState(false);
  const bounds = useRef<Bounds | null>(null);
  const handle = useRef<MapHandle>(null);
  const card = useRef<HTMLDivElement>(null);
  const points = useMemo(() => (map ? mapPoints(map) : []), [map]);
  const unplaced = map?.unplaced ?? [];
  const data = useMemo(() => pointCollection(points, colour), [points, colour]);
  const range = useMemo(() => colourRange(points, colour), [points, colour]);
  const format = (v: number) => (colour === 'avgMeterPrice' ? `${formatRoubles(v)} ₽` : formatChange(v));
  const report = (b: Bounds | null, on = onlyVisible) => {
    bounds.current = b;
    onVisible?.(on && b ? visibleIds(points, b) : null);
  };
  const open = (id: number) => {
    const point = points.find((p) => p.id === id);
    if (point && !point.registry) navigate(dashboardUrl(point.developerId, point.id));
  };
  const tooltip = (at: number) => (map ? pointTooltip(map, at) : '');
  const download = () => {
    const canvas = handle.current?.canvas();
    if (!canvas) return;
    try {
      saveFile(
        `${fileName}.png`,
        mapPicture(
          canvas,
          {
            title: `Карта проектов · ${MAP_COLOUR_LABELS[colour]}`,
            low: format(range[0]),
            high: format(range[1]),
          },
          handle.current?.labels(),
        ),
      );
    } catch (error) {
      toast(`Не удалось выгрузить карту: ${(error as Error).message}`);
    }
  };

  return (
    <div ref={card} className="rounded-2xl bg-white p-4 dark:bg-slate-900" data-testid="chart-market-map">
      <div className="mb-2 flex items-start justify-between gap-2">
        <h3 className="font-semibold leading-tight">Карта проектов</h3>
        <CardMenu
          label="Меню карты"
          items={[
            { label: 'Скачать PNG', icon: mdiImage, action: download, testId: 'market-map-png' },
            {
              label: 'Во весь экран',
              icon: mdiFullscreen,
              action: () => void card.current?.requestFullscreen(),
              testId: 'market-map-fullscreen',
            },
          ]}
        />
      </div>
      <div className="mb-2 flex flex-wrap items-end justify-between gap-3 text-gray-500 text-sm dark:text-slate-400">
        <span>
          Размер круга — квартир в продаже (у проектов только из реестра — квартир по реестру, серые); синие
          круги с числом — группы проектов, щелчок приближает.
        </span>
        <div className="flex flex-wrap items-end gap-4">
          <Switch
            checked={onlyVisible}
            data-testid="market-map-visible"
            onChange={(e) => {
              setOnlyVisible(e.target.checked);
              report(bounds.current, e.target.checked);
            }}
          >
            Таблица — только видимые на карте
          </Switch>
          <div className="w-56">
            <Select
              label="Цвет"
              testId="market-map-colour"
              value={colour}
              options={(Object.keys(MAP_COLOUR_LABELS) as MapColour[]).map((c) => ({
                value: c,
                label: MAP_COLOUR_LABELS[c],
              }))}
              onChange={(v) => setColour(v as MapColour)}
            />
          </div>
        </div>
      </div>
      <div className="relative w-full overflow-hidden rounded-lg" style={{ height: 460 }}>
        {config.data && canvas.module ? (
          <canvas.module.default
            config={config.data}
            dark={dark}
            points={points}
            data={data}
            range={range}
            tooltip={tooltip}
            onOpen={open}
            onView={(b) => report(b)}
            handle={handle}
            waiting={loading}
          />
        ) : config.isError || canvas.error ? (
          <p className="p-4 text-red-600" role="alert">
            Карта: {(config.error ?? canvas.error)?.message}
          </p>
        ) : (
          <MapWait />
        )}
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm" data-testid="market-map-legend">
        <span>{MAP_COLOUR_LABELS[colour]}:</span>
        <span>{format(range[0])}</span>
        <span
          className="inline-block h-3 w-40 rounded"
          style={{ background: `linear-gradient(to right, ${SCALE.join(', ')})` }}
        />
        <span>{format(range[1])}</span>
        <span className="inline-flex items-center gap-1">
          <span className="inline-block h-3 w-3 rounded-full" style={{ background: GREY }} /> только в реестре
        </span>
      </div>
      {points.length === 0 && !loading && (
        <p className="mt-2 text-gray-500 text-sm">Ни у одного проекта выборки нет координат.</p>
      )}
      {unplaced.length > 0 && (
        <div className="mt-3 text-sm" data-testid="market-unplaced">
          <span className="text-gray-500 dark:text-slate-400">Без координат ({unplaced.length}): </span>
          {unplaced.map((r, i) => (
            <span key={r.id}>
              {i > 0 && ', '}
              {r.registryOnly ? (
                r.name
              ) : (
                <Link
                  className="text-blue-600 hover:underline dark:text-blue-400"
                  to={dashboardUrl(r.developerId, r.id)}
                >
                  {r.name}
                </Link>
              )}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

function MapWait() {
  return (
    <div
      className="h-full w-full animate-pulse bg-slate-100 dark:bg-slate-800"
      role="status"
      aria-label="Карта загружается"
    />
  );
}
