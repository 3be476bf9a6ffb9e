import {
  mdiDotsVertical,
  mdiFileDocumentOutline,
  mdiFullscreen,
  mdiImage,
  mdiPrinter,
  mdiSvg,
} from '@mdi/js';
import { useEffect, useRef } from 'react';
import { useDarkMode } from '../../lib/dark-mode';
import { Dropdown } from '../dropdown';
import { Icon } from '../icon';
import { toast } from '../toast';
import { type echarts, useEChart } from './echarts';
import { chartImage, chartPdf, chartSvg, printChart, saveFile } from './export';
import { type ChartLook, chartOption } from './options';
import type { ChartSeries } from './types';

/**
 * A time chart card: ECharts on a canvas, redrawn when its series or look change, disposed on unmount;
 * its menu downloads PNG, JPEG, PDF or SVG, prints, or goes full screen, all in the browser.
 */
export function TimeChart({
  id,
  title,
  series,
  look,
  height,
  fileName,
}: {
  id: string;
  title: string;
  series: ChartSeries[];
  look: Omit<ChartLook, 'dark'>;
  height: number;
  fileName: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const chart = useEChart(box);
  const dark = useDarkMode();

  const { smooth, alwaysSteps, yName, counts, gaps, decimals, rightName } = look;
  useEffect(() => {
    const instance = chart.current!;
    instance.setOption(
      chartOption(series, { smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark }),
      {
        notMerge: true,
      },
    );
    // what is drawn, for tests and for people reading the DOM: series with data and the date span
    const drawn = series.filter((s) => s.data.some(([, v]) => v !== null));
    box.current!.dataset.series = String(drawn.length);
    box.current!.dataset.first = drawn[0]?.data[0]?.[0] ?? '';
    box.current!.dataset.last = drawn[0]?.data.at(-1)?.[0] ?? '';
    box.current!.dataset.gaps = String(gaps?.length ?? 0);
  }, [series, smooth, alwaysSteps, yName, counts, gaps, decimals, rightName, dark, chart]);

  const run = (action: (c: ReturnType<typeof echarts.init>) => Promise<void> | void) => async () => {
    if (!chart.current) return;
    try {
      await action(chart.current);
    } catch (error) {
      toast(`Не удалось выгрузить график: ${(error as Error).message}`);
    }
  };

  const items = [
    {
      label: 'Скачать PNG',
      icon: mdiImage,
      action: run((c) => saveFile(`${fileName}.png`, chartImage(c, 'png'))),
    },
    {
      label: 'Скачать JPEG',
      icon: mdiImage,
      action: run((c) => saveFile(`${fileName}.jpg`, chartImage(c, 'jpeg'))),
    },
    {
      label: 'Скачать PDF',
      icon: mdiFileDocumentOutline,
      action: run(async (c) => saveFile(`${fileName}.pdf`, await chartPdf(c, title))),
    },
    {
      label: 'Скачать SVG',
      icon: mdiSvg,
      action: run(async (c) =>
        saveFile(`${fileName}.svg`, new Blob([await chartSvg(c)], { type: 'image/svg+xml' })),
      ),
    },
    { label: 'Печать', icon: mdiPrinter, action: run((c) => printChart(c, title)) },
    { label: 'Во весь экран', icon: mdiFullscreen, action: run(() => card.current?.requestFullscreen()) },
  ];

  return (
    <div ref={card} className="rounded-2xl bg-white p-4 dark:bg-slate-900" data-testid={`chart-${id}`}>
      <div className="mb-2 flex items-start justify-between gap-2">
        <h3 className="font-semibold leading-tight">{title}</h3>
        <Dropdown
          label={`Меню графика «${title}»`}
          trigger={<Icon path={mdiDotsVertical} />}
          buttonClassName="rounded p-1 hover:bg-gray-100 dark:hover:bg-slate-700"
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              onClick={item.action}
              className="flex w-full items-center gap-2 px-4 py-2 text-left hover:bg-gray-100 dark:hover:bg-slate-700"
            >
              <Icon path={item.icon} size={16} />
              {item.label}
            </button>
          ))}
        </Dropdown>
      </div>
      <div ref={box} className="echart w-full" style={{ height }} />
    </div>
  );
}
