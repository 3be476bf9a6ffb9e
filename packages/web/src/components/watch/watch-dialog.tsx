import {
  buildingLabel,
  FACING_LABELS,
  FACINGS,
  type Facing,
  ROOM_GROUP_LABELS,
  ROOM_GROUPS,
  type RoomGroup,
  type WatchRules,
} from '@cena-metra/contract';
import { useEffect, useState } from 'react';
import { Checkbox } from '../controls';
import { Modal } from '../modal';
import { readWatchForm } from './watch-form';

/** A segment's bounds as the dialog edits them. */
export interface SegmentBounds {
  building: string | null;
  rooms: RoomGroup;
  maxPrice: number | null;
  finish: Facing | null;
}

const field =
  'w-full rounded-sm border border-gray-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-800';

/**
 * The rules of a watched item (and a segment's bounds): which changes alert — a price change (any, or of
 * at least X %), the lot removed, back on sale, new lots in a segment. A bad threshold is said beside it.
 */
export function WatchDialog({
  open,
  title,
  rules,
  segment,
  buildings = [],
  allowFresh = segment !== undefined,
  busy,
  onSave,
  onCancel,
}: {
  open: boolean;
  title: string;
  rules: WatchRules;
  /** a segment: its bounds (a flat: none) */
  segment?: SegmentBounds;
  buildings?: string[];
  /** the «new lots» rule (segments) */
  allowFresh?: boolean;
  busy?: boolean;
  onSave: (rules: WatchRules, segment?: SegmentBounds) => void;
  onCancel: () => void;
}) {
  const [r, setR] = useState(rules);
  const [threshold, setThreshold] = useState(
    rules.minChangePercent === null ? '' : String(rules.minChangePercent),
  );
  const [bounds, setBounds] = useState(segment);
  const [maxPrice, setMaxPrice] = useState(segment?.maxPrice ? String(segment.maxPrice) : '');
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a dialog opened again starts from its item
  useEffect(() => {
    if (!open) return;
    setR(rules);
    setThreshold(rules.minChangePercent === null ? '' : String(rules.minChangePercent));
    setBounds(segment);
    setMaxPrice(segment?.maxPrice ? String(segment.maxPrice) : '');
    setError(null);
  }, [open]);

  const save = () => {
    const read = readWatchForm(r, threshold, maxPrice, allowFresh);
    if ('problem' in read) return setError(read.problem);
    onSave(read.rules, bounds && { ...bounds, maxPrice: read.maxPrice });
  };

  return (
    <Modal
      open={open}
      title={title}
      confirmLabel={busy ? 'Сохраняю…' : 'Сохранить'}
      cancelLabel="Отмена"
      onConfirm={save}
      onCancel={onCancel}
    >
      <div className="flex flex-col gap-3 text-sm" data-testid="watch-dialog">
        {bounds && (
          <div className="grid grid-cols-2 gap-3">
            <label className="flex flex-col gap-1">
              Корпус
              <select
                className={field}
                data-testid="watch-building"
                value={bounds.building ?? ''}
                onChange={(e) => setBounds({ ...bounds, building: e.target.value || null })}
              >
                <option value="">Все корпуса</option>
                {buildings.map((b) => (
                  <option key={b} value={b}>
                    {buildingLabel(b)}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              Комнатность
              <select
                className={field}
                data-testid="watch-rooms"
                value={bounds.rooms}
                onChange={(e) => setBounds({ ...bounds, rooms: e.target.value as RoomGroup })}
              >
                {ROOM_GROUPS.map((g) => (
                  <option key={g} value={g}>
                    {ROOM_GROUP_LABELS[g]}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              Цена до, ₽
              <input
                className={field}
                inputMode="numeric"
                placeholder="любая"
                data-testid="watch-max-price"
                value={maxPrice}
                onChange={(e) => setMaxPrice(e.target.value)}
              />
            </label>
            <label className="flex flex-col gap-1">
              Отделка
              <select
                className={field}
                data-testid="watch-finish"
                value={bounds.finish ?? ''}
                onChange={(e) => setBounds({ ...bounds, finish: (e.target.value || null) as Facing | null })}
              >
                <option value="">Любая</option>
                {FACINGS.map((f) => (
                  <option key={f} value={f}>
                    {FACING_LABELS[f]}
                  </option>
                ))}
              </select>
            </label>
          </div>
        )}
        <p className="font-semibold">Сообщать, когда</p>
        <Checkbox
          checked={r.price}
          data-testid="rule-price"
          onChange={(e) => setR({ ...r, price: e.target.checked })}
        >
          меняется цена
        </Checkbox>
        {r.price && (
          <label className="ml-7 flex items-center gap-2">
            не меньше чем на
            <input
              className={`${field} w-20`}
              inputMode="decimal"
              placeholder="любое"
              data-testid="rule-threshold"
              value={threshold}
              onChange={(e) => setThreshold(e.target.value)}
            />
            %
          </label>
        )}
        <Checkbox
          checked={r.removed}
          data-testid="rule-removed"
          onChange={(e) => setR({ ...r, removed: e.target.checked })}
        >
          {allowFresh ? 'квартиру из сегмента снимают с продажи' : 'квартиру снимают с продажи'}
        </Checkbox>
        <Checkbox
          checked={r.back}
          data-testid="rule-back"
          onChange={(e) => setR({ ...r, back: e.target.checked })}
        >
          квартира снова в продаже
        </Checkbox>
        {allowFresh && (
          <Checkbox
            checked={r.fresh}
            data-testid="rule-fresh"
            onChange={(e) => setR({ ...r, fresh: e.target.checked })}
          >
            появляются новые квартиры
          </Checkbox>
        )}
        <Checkbox
          checked={r.promo}
          data-testid="rule-promo"
          onChange={(e) => setR({ ...r, promo: e.target.checked })}
        >
          у застройщика появляется или заканчивается акция (зачёркнутая цена)
        </Checkbox>
        {error && (
          <p className="text-red-600 dark:text-red-400" role="alert">
            {error}
          </p>
        )}
      </div>
    </Modal>
  );
}
