import { buildingLabel, type ChessCellView, formatRoubles, roomsLabel } from '@cena-metra/contract';
import { mdiGrid, mdiImage } from '@mdi/js';
import { useMemo, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useDevelopers, useProjects } from '../../api/catalog';
import { saveFile } from '../../components/chart/export';
import { DateInput } from '../../components/date-input';
import { DataState } from '../../components/states';
import { toast } from '../../components/toast';
import { Button, Section, SectionTitle, Select } from '../../components/ui';
import { useTitle } from '../../lib/use-title';
import { useChess } from './api';
import { CHESS_MODE_LABELS, CHESS_MODES, type ChessMode, chessColours } from './lib/colours';
import { boardLayout, CELL } from './lib/layout';

const day = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');

/** The short label of a cell: rooms, area; price in millions; ppm in thousands. */
function cellLines(c: ChessCellView): [string, string] {
  const rooms = c.rooms === 0 ? 'Ст' : `${c.rooms}к`;
  return [
    `${rooms} · ${c.area.toLocaleString('ru-RU')} м²`,
    `${(c.price / 1e6).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} млн · ${Math.round(c.meterPrice / 1000)}к`,
  ];
}

/**
 * «Шахматка» (DESIGN §10.7): a building's flats by section, floor and number on a day, coloured by ppm,
 * status, change since a date or days on market; a slider over the project's list dates redraws it in place;
 * a cell opens the flat's card. The URL keeps project, building, day, mode, the «since» day and a flat.
 */
export function ChessPage() {
  useTitle('Шахматка');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const projectId = Number(params.get('project')) || null;
  const building = params.get('building') ?? undefined;
  const date = params.get('date') ?? undefined;
  const since = params.get('since') ?? undefined;
  const highlight = Number(params.get('flat')) || null;
  const mode = (CHESS_MODES as readonly string[]).includes(params.get('mode') ?? '')
    ? (params.get('mode') as ChessMode)
    : 'ppm';
  const set = (next: Record<string, string | undefined>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) v === undefined ? p.delete(k) : p.set(k, v);
    setParams(p, { replace: true });
  };
  const developers = useDevelopers();
  const developerId = Number(params.get('developer')) || developers.data?.[0]?.id || null;
  const projects = useProjects(developerId);
  const chosen = projectId ?? projects.data?.[0]?.id ?? null;
  const q = useChess({ projectId: chosen, building, date, since });
  const data = q.data;
  const cells = useMemo(
    () => (data ? [...data.sections.flatMap((s) => s.floors.flatMap((f) => f.cells)), ...data.strip] : []),
    [data],
  );
  const colours = useMemo(() => chessColours(cells, mode), [cells, mode]);
  const layout = useMemo(() => (data ? boardLayout(data) : null), [data]);
  const svg = useRef<SVGSVGElement>(null);
  const dateIndex = data?.date ? data.dates.filter((d) => d <= data.date!).length - 1 : -1;

  const exportPng = async () => {
    try {
      saveFile(`Шахматка ${data?.building ?? ''} ${data?.date ?? ''}.png`, await svgPng(svg.current!));
    } catch (error) {
      toast(`Не удалось выгрузить PNG: ${(error as Error).message}`);
    }
  };

  return (
    <Section>
      <SectionTitle
        icon={mdiGrid}
        right={
          <Button icon={mdiImage} small disabled={!layout} onClick={exportPng} data-testid="chess-png">
            PNG
          </Button>
        }
      >
        Шахматка
      </SectionTitle>
      <div className="mb-4 grid grid-cols-1 items-end gap-4 md:grid-cols-2 xl:grid-cols-4">
        <Select
          label="Застройщик"
          testId="chess-developer"
          value={developerId ? String(developerId) : ''}
          options={(developers.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
          onChange={(v) => set({ developer: v, project: undefined, building: undefined, flat: undefined })}
        />
        <Select
          label="Проект"
          testId="chess-project"
          value={chosen ? String(chosen) : ''}
          options={(projects.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          onChange={(v) => set({ project: v, building: undefined, flat: undefined })}
        />
        <Select
          label="Корпус"
          testId="chess-building"
          value={data?.building ?? ''}
          options={(data?.buildings ?? []).map((b) => ({ value: b, label: buildingLabel(b) }))}
          onChange={(v) => set({ building: v })}
        />
        <Select
          label="Цвет"
          testId="chess-mode"
          value={mode}
          options={CHESS_MODES.map((m) => ({ value: m, label: CHESS_MODE_LABELS[m] }))}
          onChange={(v) => set({ mode: v })}
        />
      </div>
      {data && data.dates.length > 0 && (
        <div className="mb-4 grid grid-cols-1 items-end gap-4 md:grid-cols-4">
          <label className="block md:col-span-3">
            <span className="mb-1 block font-semibold text-sm">
              Дата: {data.date ? day(data.date) : '—'}
              {q.isFetching && <span className="ml-2 font-normal text-gray-500">обновляю…</span>}
            </span>
            <input
              type="range"
              className="w-full"
              min={0}
              max={data.dates.length - 1}
              value={Math.max(0, dateIndex)}
              data-testid="chess-slider"
              aria-label="Дата снимка"
              onChange={(e) => set({ date: data.dates[Number(e.target.value)] })}
            />
          </label>
          {mode === 'change' && (
            <DateInput
              label="Изменение с"
              value={since ?? data.dates[0]}
              max={data.date ?? undefined}
              testId="chess-since"
              onChange={(d) => set({ since: d })}
            />
          )}
        </div>
      )}
      <DataState
        loading={!data && (q.isLoading || chosen === null)}
        error={q.error}
        empty={data !== undefined && cells.length === 0}
        emptyText="В этом корпусе на эту дату квартир нет."
      >
        <div className="mb-3 flex flex-wrap gap-3 text-sm" data-testid="chess-legend">
          {colours.legend.map((l) => (
            <span key={l.label} className="inline-flex items-center gap-1">
              <span className="inline-block h-3 w-5 rounded-sm" style={{ background: l.colour }} />
              {l.label}
            </span>
          ))}
        </div>
        {layout && (
          <div
            className="overflow-x-auto rounded-2xl bg-white p-3 dark:bg-slate-900"
            data-testid="chess-frame"
            style={{ maxWidth: '100%' }}
          >
            <svg
              ref={svg}
              xmlns="http://www.w3.org/2000/svg"
              width={layout.width}
              height={layout.height}
              viewBox={`0 0 ${layout.width} ${layout.height}`}
              fontFamily="Nunito, sans-serif"
              data-testid="chess-board"
              data-cells={layout.cells.length}
              data-date={data?.date ?? ''}
              role="img"
              aria-label={`Шахматка корпуса ${data?.building ?? ''}`}
            >
              <rect width={layout.width} height={layout.height} fill="#ffffff" />
              {layout.titles.map((t) => (
                <text key={t.text} x={t.x} y={16} fontSize={13} fontWeight={700} fill="#334155">
                  {t.text}
                </text>
              ))}
              {layout.floorLabels.map((l) => (
                <text
                  key={`${l.x}-${l.text}`}
                  x={l.x + 4}
                  y={l.y + CELL.h / 2 + 4}
                  fontSize={12}
                  fill="#64748b"
                >
                  {l.text}
                </text>
              ))}
              {layout.stripTitleY !== null && (
                <text x={0} y={layout.stripTitleY} fontSize={13} fontWeight={700} fill="#334155">
                  Без этажа или номера
                </text>
              )}
              {layout.cells.map(({ cell, x, y }) => {
                const [first, second] = cellLines(cell);
                const title = `№ ${cell.number ?? '—'}, этаж ${cell.floor ?? '—'} · ${roomsLabel(cell.rooms)}, ${cell.area} м² · ${formatRoubles(cell.price)} ₽ (${formatRoubles(cell.meterPrice)} ₽/м²) · ${cell.state === 'gone' ? `выбыла, последний раз ${day(cell.lastSeen)}` : `${cell.daysOnMarket} дн. в продаже`}`;
                return (
                  // biome-ignore lint/a11y/useSemanticElements: an SVG cell cannot be a <button>; it is focusable and keyed
                  <g
                    key={cell.flatId}
                    role="button"
                    tabIndex={0}
                    data-flat={cell.flatId}
                    data-state={cell.state}
                    data-colour={colours.colour(cell)}
                    className="cursor-pointer"
                    onClick={() => navigate(`/flat?flatId=${cell.flatId}`)}
                    onKeyDown={(e) => e.key === 'Enter' && navigate(`/flat?flatId=${cell.flatId}`)}
                  >
                    <title>{title}</title>
                    <rect
                      x={x}
                      y={y}
                      width={CELL.w}
                      height={CELL.h}
                      rx={4}
                      fill={colours.colour(cell)}
                      stroke={cell.flatId === highlight ? '#1d4ed8' : '#ffffff'}
                      strokeWidth={cell.flatId === highlight ? 3 : 1}
                    />
                    <text x={x + 4} y={y + 13} fontSize={10} fontWeight={700} fill="#0f172a">
                      {cell.number ?? '—'}
                    </text>
                    <text x={x + 4} y={y + 26} fontSize={9} fill="#0f172a">
                      {first}
                    </text>
                    <text x={x + 4} y={y + 39} fontSize={9} fill="#0f172a">
                      {second}
                    </text>
                  </g>
                );
              })}
            </svg>
          </div>
        )}
      </DataState>
    </Section>
  );
}

/** An SVG element drawn into a PNG at twice its size (sharp on a screen and in print). */
async function svgPng(svg: SVGSVGElement): Promise<Blob> {
  const text = new XMLSerializer().serializeToString(svg);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = new Image();
    await new Promise<void>((done, fail) => {
      image.onload = () => done();
      image.onerror = () => fail(new Error('не удалось нарисовать шахматку'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = svg.width.baseVal.value * 2;
    canvas.height = svg.height.baseVal.value * 2;
    const context = canvas.getContext('2d')!;
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    return await new Promise<Blob>((done, fail) =>
      canvas.toBlob((b) => (b ? done(b) : fail(new Error('пустое изображение'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
