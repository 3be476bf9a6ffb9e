import { type AlertKind, watchRulesSchema } from '@cena-metra/contract';
import { describe, expect, it } from 'vitest';
import { type AlertEvent, alertFor, matchAlerts, type WatchItem } from './alerts.js';

const D = 20_000; // the day the watches start
const flat = (over: Partial<WatchItem> = {}, rules: object = {}): WatchItem => ({
  id: 1,
  flatId: 7,
  building: null,
  rooms: 'all',
  maxPrice: null,
  finish: null,
  rules: watchRulesSchema.parse(rules),
  since: D,
  ...over,
});
const segment = (over: Partial<WatchItem> = {}, rules: object = { fresh: true }): WatchItem =>
  flat({ id: 2, flatId: null, ...over }, rules);
const event = (kind: AlertEvent['kind'], over: Partial<AlertEvent> = {}): AlertEvent => ({
  day: D + 1,
  flatId: 7,
  kind,
  building: '3',
  rooms: 2,
  facing: 'WHITE',
  oldPrice: kind === 'NEW' ? null : 10_000_000,
  newPrice: kind === 'REMOVED' ? null : kind === 'PRICE_UP' ? 10_500_000 : 9_700_000,
  changePercent: kind === 'PRICE_UP' ? 5 : kind === 'PRICE_DOWN' ? -3 : null,
  firstSeen: kind === 'NEW' ? D + 1 : D - 100,
  ...over,
});

describe('the alert rules (issue 17)', () => {
  const cases: [string, WatchItem, AlertEvent, AlertKind | null][] = [
    // a flat: its own events by the rules
    ['flat: any price cut', flat(), event('PRICE_DOWN'), 'PRICE_DOWN'],
    ['flat: any price rise', flat(), event('PRICE_UP'), 'PRICE_UP'],
    ['flat: another flat’s cut', flat(), event('PRICE_DOWN', { flatId: 8 }), null],
    [
      'flat: a cut of 3 % under a 5 % threshold',
      flat({}, { minChangePercent: 5 }),
      event('PRICE_DOWN'),
      null,
    ],
    [
      'flat: a rise of 5 % at a 5 % threshold',
      flat({}, { minChangePercent: 5 }),
      event('PRICE_UP'),
      'PRICE_UP',
    ],
    [
      'flat: a cut of 6 % over a 5 % threshold (either way)',
      flat({}, { minChangePercent: 5 }),
      event('PRICE_DOWN', { changePercent: -6 }),
      'PRICE_DOWN',
    ],
    ['flat: price rule off', flat({}, { price: false }), event('PRICE_DOWN'), null],
    ['flat: removed', flat(), event('REMOVED'), 'REMOVED'],
    ['flat: removed, rule off', flat({}, { removed: false }), event('REMOVED'), null],
    ['flat: back on sale', flat(), event('NEW', { firstSeen: D - 30 }), 'BACK'],
    ['flat: back on sale, rule off', flat({}, { back: false }), event('NEW', { firstSeen: D - 30 }), null],
    ['flat: an area change says nothing', flat(), event('AREA_CHANGED'), null],
    // §11.4: the developer's promotion, when chosen (off by default)
    ['flat: a promotion, rule off by default', flat(), event('PROMO_STARTED'), null],
    ['flat: a promotion started', flat({}, { promo: true }), event('PROMO_STARTED'), 'PROMO_STARTED'],
    ['flat: a promotion ended', flat({}, { promo: true }), event('PROMO_ENDED'), 'PROMO_ENDED'],
    [
      'segment: a promotion of any flat',
      segment({}, { promo: true }),
      event('PROMO_STARTED', { flatId: 99 }),
      'PROMO_STARTED',
    ],
    [
      'segment: another building\u2019s promotion',
      segment({ building: '4' }, { promo: true }),
      event('PROMO_ENDED'),
      null,
    ],
    ['flat: an event before the watch began', flat(), event('PRICE_DOWN', { day: D - 1 }), null],
    ['flat: an event on its first day', flat(), event('PRICE_DOWN', { day: D }), 'PRICE_DOWN'],
    // a segment: any flat of it
    ['segment: a new flat', segment(), event('NEW', { flatId: 99 }), 'NEW'],
    ['segment: new flats, rule off', segment({}, { fresh: false }), event('NEW', { flatId: 99 }), null],
    ['segment: a flat back (seen before)', segment(), event('NEW', { flatId: 99, firstSeen: D - 5 }), 'BACK'],
    ['segment: a cut of any flat', segment(), event('PRICE_DOWN', { flatId: 99 }), 'PRICE_DOWN'],
    ['segment: its building', segment({ building: '3' }), event('REMOVED'), 'REMOVED'],
    ['segment: another building', segment({ building: '4' }), event('REMOVED'), null],
    ['segment: its rooms group', segment({ rooms: 'two' }), event('PRICE_DOWN'), 'PRICE_DOWN'],
    ['segment: another rooms group', segment({ rooms: 'one' }), event('PRICE_DOWN'), null],
    [
      'segment: 3+ rooms takes 5',
      segment({ rooms: 'threeAndMore' }),
      event('PRICE_DOWN', { rooms: 5 }),
      'PRICE_DOWN',
    ],
    ['segment: studios take 0 only', segment({ rooms: 'studio' }), event('PRICE_DOWN'), null],
    ['segment: its finish', segment({ finish: 'WHITE' }), event('PRICE_DOWN'), 'PRICE_DOWN'],
    ['segment: another finish', segment({ finish: 'BLACK' }), event('PRICE_DOWN'), null],
    [
      'segment: under the cap',
      segment({ maxPrice: 10_000_000 }),
      event('NEW', { newPrice: 9_000_000 }),
      'NEW',
    ],
    ['segment: over the cap', segment({ maxPrice: 8_000_000 }), event('NEW', { newPrice: 9_000_000 }), null],
    [
      'segment: a cut into the cap counts',
      segment({ maxPrice: 9_800_000 }),
      event('PRICE_DOWN'), // 10.0 M → 9.7 M
      'PRICE_DOWN',
    ],
    [
      'segment: a rise out of the cap counts',
      segment({ maxPrice: 10_200_000 }),
      event('PRICE_UP'), // 10.0 M → 10.5 M
      'PRICE_UP',
    ],
    ['segment: a removal over the cap', segment({ maxPrice: 9_000_000 }), event('REMOVED'), null],
    ['segment: a cap exactly at the price', segment({ maxPrice: 10_000_000 }), event('REMOVED'), 'REMOVED'],
  ];
  it.each(cases)('%s', (_name, watch, e, expected) => {
    expect(alertFor(watch, e)).toBe(expected);
  });

  it('matches each event with its flat’s watches and every segment, once per (item, event)', () => {
    const watches = [flat({ id: 1 }), flat({ id: 3, flatId: 8 }), segment({ id: 2, rooms: 'two' })];
    const events = [
      event('PRICE_DOWN'),
      event('PRICE_UP', { flatId: 8 }),
      event('NEW', { flatId: 9, rooms: 1 }),
    ];
    const got = matchAlerts(watches, events).map((m) => [m.watch.id, m.event.flatId, m.kind]);
    expect(got).toEqual([
      [1, 7, 'PRICE_DOWN'],
      [2, 7, 'PRICE_DOWN'],
      [3, 8, 'PRICE_UP'],
      [2, 8, 'PRICE_UP'],
    ]);
  });
});
