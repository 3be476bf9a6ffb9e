import type { MarketRow } from '@cena-metra/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ChartCard } from '../../components/chart/chart-card';
import { useEChart } from '../../components/chart/echarts';
import { Select } from '../../components/ui';
import { useDarkMode } from '../../lib/dark-mode';
import { dashboardUrl } from '../../lib/dashboard-url';
import { MAP_COLOUR_LABELS, type MapColour, mapOption, mapPoints } from './lib/map-option';
import { isRegistryOnly } from './lib/registry-rows';

/**
 * «Рынок»'s map (DESIGN §11.3): a circle per project, its area by stock and its colour by the average ppm or
 * the index's change, with a legend and a tooltip; a click opens the project's dashboard. Drawn on plain
 * axes, with no tile server. Projects without coordinates are listed under it.
 */
export function MarketMap({ rows, fileName }: { rows: MarketRow[]; fileName: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useEChart(box);
  const dark = useDarkMode();
  const navigate = useNavigate();
  const [colour, setColour] = useState<MapColour>('avgMeterPrice');
  const { points, unplaced } = useMemo(() => mapPoints(rows), [rows]);

  useEffect(() => {
    const instance = chart.current!;
    instance.setOption(mapOption(points, colour, dark), { notMerge: true });
    const el = box.current!;
    el.dataset.points = String(points.length);
    el.dataset.registryPoints = String(points.filter((p) => isRegistryOnly(p.row)).length);
    // where each circle is drawn (project id, x, y), for a test that clicks one as a person would: written
    // after every render, a resize's included
    const pixels = () => {
      const option = instance.getOption() as { series: { data: { value: number[] }[] }[] };
      el.dataset.pixels = JSON.stringify(
        points.map((p, i) => {
          const at = option.series[0].data[i].value.slice(0, 2);
          const [x, y] = instance.convertToPixel({ seriesIndex: 0 }, at) as number[];
          return [p.row.id, Math.round(x), Math.round(y)];
        }),
      );
    };
    pixels();
    instance.on('finished', pixels);
    return () => {
      instance.off('finished', pixels);
    };
  }, [points, colour, dark, chart]);

  useEffect(() => {
    const instance = chart.current!;
    const open = (e: { dataIndex?: number; componentType?: string }) => {
      if (e.componentType !== 'series' || e.dataIndex === undefined) return;
      const row = points[e.dataIndex]?.row;
      // a registry-only project has no dashboard (no price list)
      if (row && !isRegistryOnly(row)) navigate(dashboardUrl(row.developerId, row.id));
    };
    instance.on('click', open);
    return () => {
      instance.off('click', open);
    };
  }, [points, chart, navigate]);

  return (
    <ChartCard id="market-map" title="Карта проектов" chart={chart} fileName={fileName}>
      <div className="mb-2 flex flex-wrap items-end justify-between gap-3 text-gray-500 text-sm dark:text-slate-400">
        <span>
          Размер круга — квартир в продаже (у проектов только из реестра — квартир по реестру, серые); колесо
          мыши — масштаб, перетаскивание — сдвиг.
        </span>
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
      <div ref={box} className="echart w-full" style={{ height: 420 }} data-testid="market-map" />
      {points.length === 0 && (
        <p className="mt-2 text-gray-500 text-sm">Ни у одного проекта выборки нет координат.</p>
      )}
      {unplaced.length > 0 && (
        <div className="mt-3 text-sm" data-testid="market-unplaced">
          <span className="text-gray-500 dark:text-slate-400">Без координат ({unplaced.length}): </span>
          {unplaced.map((r, i) => (
            <span key={r.id}>
              {i > 0 && ', '}
              {isRegistryOnly(r) ? (
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
    </ChartCard>
  );
}
