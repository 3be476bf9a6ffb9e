import {
  type MarketRow,
  PLACE_GROUP_LABELS,
  type PlaceGroup,
  type ReliabilityValue,
  type Sheet,
} from '@cena-metra/contract';
import { sheetOf } from '../../../lib/columns';
import { marketColumns } from './market-columns';
import type { MarketView } from './market-table';

/** «Рынок»: projects, developers or places with the figures of their last day with data. */
export function marketSheet(
  rows: MarketRow[],
  view: MarketView,
  by: PlaceGroup = 'district',
  reliability?: Map<number, ReliabilityValue>,
): Sheet<MarketRow> {
  const name =
    view === 'projects' ? 'Проекты' : view === 'developers' ? 'Застройщики' : PLACE_GROUP_LABELS[by];
  return sheetOf(name, marketColumns(view, by, undefined, reliability), rows);
}
