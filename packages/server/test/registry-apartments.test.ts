import { expect, it } from 'vitest';
import { Importer } from '../src/ingest/importer.js';
import { MarketReader } from '../src/read/market-reader.js';
import { ReadCache } from '../src/read/read-cache.js';
import { registryMarket } from '../src/read/registry-market.js';
import { registryPipeline, registrySales } from '../src/read/registry-sales.js';
import { isApartments, readAnswer } from '../src/registry/answers.js';
import type { SavedAnswer } from '../src/registry/files.js';
import { cliActor, commandHost } from '../src/use-cases/host.js';
import { applyRegistryImport } from '../src/use-cases/registry.js';
import { describeEachDb } from './databases.js';

// DESIGN §12.3: apartments (non-residential lots) are kept apart from flats in every figure. A developer's two
// objects side by side: a ЖК of 100 flats and an «апарт-комплекс» of 80 units, both selling.

const answersOf = (day: string, flatsSold: number, unitsSold: number): SavedAnswer[] => {
  const entry = (objId: number, name: string, units: number) => ({
    objId,
    objCommercNm: name,
    objAddr: `г. Тестоград, ${name}`,
    latitude: 56.1,
    longitude: 40.1,
    objElemLivingCnt: units,
    objReady100PercDt: '2027-12-31',
    objPublDt: '2025-03-01',
    developer: { devId: 5, shortName: 'СЗ Тест' },
  });
  const list = {
    data: { total: 2, list: [entry(1, 'ЖК Набережная', 100), entry(2, 'Апарт-комплекс Набережная', 80)] },
  };
  const detail = (objId: number, cls: string) => ({ data: { objId, objLkClassDesc: cls } });
  const sales = (objId: number, total: number, realised: number) => ({
    data: { objId, apartmentsAggData: { total, realised } },
  });
  return [
    list,
    detail(1, 'Комфорт'),
    detail(2, 'Апартаменты'),
    sales(1, 100, flatsSold),
    sales(2, 80, unitsSold),
  ].map((raw) => ({ day, source: 'тест', raw, read: readAnswer(raw) }));
};

describeEachDb('apartments apart from flats (DESIGN §12.3)', (ctx) => {
  it('reads the apartments object as apartments and counts it in no figure of flats', async () => {
    const host = commandHost(ctx.db, new Importer(ctx.db, 2));
    await applyRegistryImport(
      host,
      [...answersOf('2026-10-31', 40, 60), ...answersOf('2026-11-30', 50, 80)],
      cliActor(),
    );
    expect(isApartments({ name: 'Апарт-комплекс Набережная' })).toBe(true);
    expect(isApartments({ name: 'ЖК Набережная', classRaw: 'Комфорт' })).toBe(false);
    expect(isApartments({ classRaw: 'апартаменты' })).toBe(true);
    const market = new MarketReader(new ReadCache());
    const reg = await registryMarket(ctx.db, market, {});
    // one ЖК («апарт-комплекс» is no part of its name, as matching reads it): its flats' figures, its
    // apartments counted apart
    expect(reg.projects).toEqual([
      expect.objectContaining({
        name: 'ЖК Набережная',
        objects: 1,
        apartments: 1,
        flats: 100,
        realised: 50,
        soldShare: 0.5,
        latitude: 56.1,
      }),
    ]);
    expect(reg.objects).toBe(2);
    // registered sales of the market: the flats' 10, not the units' 20
    const sales = await registrySales(ctx.db, market, { from: '2026-10-01', to: '2026-11-30' });
    expect(sales.objects).toBe(1);
    expect(sales.months.map((m) => [m.month, m.sales, m.soldShare])).toEqual([
      ['2026-10', null, 0.4],
      ['2026-11', 10, 0.5],
    ]);
    const pipeline = await registryPipeline(ctx.db, market, { from: '2027-10-01', to: '2027-12-31' });
    expect(pipeline.objects).toBe(1);
    expect(pipeline.quarters).toEqual([
      expect.objectContaining({ quarter: '2027-Q4', completingFlats: 100, unsold: 50 }),
    ]);
  });
});
