import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { addSource } from 'cena-metra/dist/src/collect/sources.js';
import { openDb } from 'cena-metra/dist/src/db/driver.js';
import { migrate } from 'cena-metra/dist/src/db/migrate.js';
import { BIN, type Row, runNode } from './measure.js';

/** One YRL offer of a generated feed (what a developer's feed carries, ~1 KB). */
function offer(project: string, i: number): string {
  const rooms = i % 4;
  const area = 25 + rooms * 18 + (i % 10);
  return `<offer internal-id="${project.length}-${i}"><type>продажа</type><property-type>жилая</property-type><category>квартира</category>
<creation-date>2026-01-10T10:00:00+03:00</creation-date><location><country>Россия</country><locality-name>Москва</locality-name><address>ул. Бенчмарк, ${i}</address></location>
<sales-agent><category>застройщик</category><organization>Бенчмарк</organization><phone>+74950000000</phone></sales-agent>
<price><value>${area * (280_000 + (i % 50) * 1000)}</value><currency>RUB</currency></price><area><value>${area}</value><unit>кв. м</unit></area>
${rooms === 0 ? '<studio>1</studio>' : `<rooms>${rooms}</rooms>`}<floor>${1 + (i % 25)}</floor><floors-total>25</floors-total><apartment>${i}</apartment>
<renovation>чистовая</renovation><new-flat>1</new-flat><building-name>${project}</building-name><building-section>${1 + (i % 40)}</building-section>
<built-year>2027</built-year><ready-quarter>${1 + (i % 4)}</ready-quarter><description>Квартира ${i}, ${project}.</description>
<image>https://example.org/plans/${i}.png</image></offer>
`;
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<realty-feed xmlns="http://webmaster.yandex.ru/schemas/feed">
<generation-date>2026-11-20T06:00:00+03:00</generation-date>
`;

async function writeFeed(path: string, project: string, offers: number) {
  const out = createWriteStream(path);
  out.write(HEAD);
  for (let i = 1; i <= offers; i++)
    if (!out.write(offer(project, i))) await new Promise<void>((r) => out.once('drain', () => r()));
  out.end('</realty-feed>\n');
  await new Promise<void>((r) => out.once('finish', () => r()));
}

/**
 * DESIGN §10.8 budgets: a 100,000-offer YRL feed collected and imported from a loopback server by
 * `cena-metra collect` (time and peak RSS of the whole CLI run), and one day's collection of 200 sources
 * (a generated market on loopback, collected a few at a time).
 */
export async function collectBench(
  work: string,
  rows: Row[],
  note: (s: string) => void,
  sizes: { offers: number; sources: number; perSource: number },
) {
  const big = join(work, 'big-feed.xml');
  note(`collect: генерирую фид на ${sizes.offers} предложений…`);
  await writeFeed(big, 'ЖК Огромный', sizes.offers);
  const market = new Map<string, string>();
  for (let s = 1; s <= sizes.sources; s++) {
    const project = `ЖК Рынок ${s}`;
    let text = HEAD;
    for (let i = 1; i <= sizes.perSource; i++) text += offer(project, i);
    market.set(`/market/${s}.xml`, `${text}</realty-feed>\n`);
  }
  const server = createServer((req, res) => {
    if (req.url === '/big-feed.xml') {
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': statSync(big).size });
      createReadStream(big).pipe(res);
    } else if (market.has(req.url ?? '')) res.writeHead(200).end(market.get(req.url!));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the feeds are served on this machine: allowed as an operator allows an intranet host (DESIGN §11.5)
  const pglite = { DATABASE_URL: '', LOG_LEVEL: 'silent', COLLECT_ALLOW_HOSTS: '127.0.0.1:*' };
  process.env.COLLECT_ALLOW_HOSTS = '127.0.0.1:*';
  try {
    const dir = join(work, 'collect-big');
    const add = await runNode(
      BIN,
      ['--data-dir', dir, 'source', 'add', 'Огромный фид', '--kind', 'yrl', '--url', `${base}/big-feed.xml`],
      work,
      pglite,
    );
    if (add.code !== 0) throw new Error(`source add: ${add.stderr}`);
    note('collect: собираю большой фид…');
    // run as `npx cena-metra collect` runs it: the bin with its shebang's node flags
    const run = await runNode(
      BIN,
      ['--data-dir', dir, '--json', 'collect', '--date', '2026-11-20'],
      work,
      pglite,
      true,
    );
    if (run.code !== 0) throw new Error(`collect: ${run.stderr}`);
    const [result] = JSON.parse(run.stdout) as { итог: string; квартир: number }[];
    if (result.итог !== 'done' || result.квартир !== sizes.offers)
      throw new Error(`collect: unexpected ${run.stdout}`);
    const mb = (statSync(big).size / 1048576).toFixed(0);
    rows.push({
      what: `collect + import a ${sizes.offers.toLocaleString('en')}-offer YRL feed (${mb} MB) from loopback: time (whole CLI run)`,
      value: `${(run.ms / 1000).toFixed(1)} s`,
      budget: '≤ 20 s',
      ok: run.ms <= 20_000,
    });
    rows.push({
      what: `collect + import a ${sizes.offers.toLocaleString('en')}-offer YRL feed: peak memory (RSS)`,
      value: `${Math.round(run.peakMb)} MB`,
      budget: '≤ 600 MB',
      ok: run.peakMb <= 600,
    });

    const marketDir = join(work, 'collect-market');
    const db = await openDb({ dataDir: marketDir });
    try {
      await migrate(db);
      for (let s = 1; s <= sizes.sources; s++)
        await addSource(db, { name: `Рынок ${s}`, kind: 'yrl', url: `${base}/market/${s}.xml` });
    } finally {
      await db.close();
    }
    note(`collect: день рынка из ${sizes.sources} источников…`);
    const day = await runNode(
      BIN,
      ['--data-dir', marketDir, '--json', 'collect', '--date', '2026-11-20'],
      work,
      pglite,
    );
    if (day.code !== 0) throw new Error(`collect market: ${day.stderr}`);
    const done = (JSON.parse(day.stdout) as { итог: string }[]).filter((r) => r.итог === 'done').length;
    rows.push({
      what: `one day's collection of ${sizes.sources} sources × ${sizes.perSource} offers (loopback, 4 at a time)`,
      value: `${(day.ms / 1000).toFixed(1)} s, ${done}/${sizes.sources} done`,
      budget: '≤ 5 min, all done',
      ok: day.ms <= 300_000 && done === sizes.sources,
    });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
