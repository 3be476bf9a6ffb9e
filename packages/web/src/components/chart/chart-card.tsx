import {
  mdiDotsVertical,
  mdiFileDocumentOutline,
  mdiFullscreen,
  mdiImage,
  mdiPrinter,
  mdiSvg,
} from '@mdi/js';
import { type ReactNode, type RefObject, useRef } from 'react';
import { Dropdown } from '../dropdown';
import { Icon } from '../icon';
import { toast } from '../toast';
import type { echarts } from './echarts';
import { chartImage, chartPdf, chartSvg, printChart, saveFile } from './export';

type Chart = ReturnType<typeof echarts.init>;

/**
 * A chart's card: its title and a menu that downloads PNG, JPEG, PDF or SVG, prints, or goes full screen,
 * all in the browser; the chart itself (and anything under it) is the card's children.
 */
export function ChartCard({
  id,
  title,
  chart,
  fileName,
  children,
}: {
  id: string;
  title: string;
  chart: RefObject<Chart | null>;
  fileName: string;
  children: ReactNode;
}) {
  const card = useRef<HTMLDivElement>(null);
  const run = (action: (c: Chart) => Promise<void> | void) => async () => {
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
        <CardMenu label={`Меню графика «${title}»`} items={items} />
      </div>
      {children}
    </div>
  );
}

/** A card's menu: the ⋮ button and its items, each an icon and a label (a chart's, the map's). */
export function CardMenu({
  label,
  items,
}: {
  label: string;
  items: { label: string; icon: string; action: () => void; testId?: string }[];
}) {
  return (
    <Dropdown
      label={label}
      trigger={<Icon path={mdiDotsVertical} />}
      buttonClassName="rounded p-1 hover:bg-gray-100 dark:hover:bg-slate-700"
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          onClick={item.action}
          data-testid={item.testId}
          className="flex w-full items-center gap-2 px-4 py-2 text-left hover:bg-gray-100 dark:hover:bg-slate-700"
        >
          <Icon path={item.icon} size={16} />
          {item.label}
        </button>
      ))}
    </Dropdown>
  );
}
