// Imports the day after the DB's last for projects [FROM, FROM+N) in process, 20 lists a transaction, timing each SQL statement.
import { openDb } from '/work/main/packages/server/dist/src/db/driver.js';
import { Importer } from '/work/main/packages/server/dist/src/ingest/importer.js';
import { importSnapshots } from '/work/main/packages/server/dist/src/ingest/batch.js';
import { snapshotsOfBody } from '/work/main/packages/server/dist/src/routes/ingest/routes.js';
import { fromDay, toDay } from '/work/main/packages/server/dist/src/lib/days.js';
import { apiSnapshot, benchLocation, benchSnapshots } from '/work/main/bench/dist/market.js';
const db = await openDb({ databaseUrl: process.env.URL });
const [{ last }] = await db.query("select max(last_snapshot_date)::text as last from project");
const LAST = toDay('2026-11-21'), DAYS = 365, PROJECTS = 5000, DEVELOPERS = 500;
const DATES = Array.from({ length: DAYS }, (_, d) => fromDay(LAST - DAYS + 1 + d));
const AFTER = []; for (let d = LAST + 1; d <= toDay(last) + 1; d++) AFTER.push(fromDay(d));
console.log('importing', AFTER.at(-1));
const FROM = Number(process.env.FROM ?? 0), N = Number(process.env.N ?? 20);
const lists = [];
for (let p = FROM; p < FROM + N; p++) {
  let l; for (const s of benchSnapshots({ flats: 200, dates: [...DATES, ...AFTER], seed: 10000 + p, developer: `Застройщик ${1 + (p % DEVELOPERS)}`, project: `Проект ${p + 1}`, location: benchLocation(p) })) l = s;
  lists.push(apiSnapshot(l, benchLocation(p)));
}
const snapshots = await snapshotsOfBody(JSON.parse(JSON.stringify(lists)), false);
// time each statement
const stats = new Map();
const wrap = (o, name) => { const f = o[name].bind(o); o[name] = async (sql, ...rest) => { const t = performance.now(); try { return await f(sql, ...rest); } finally { const k = String(sql).replace(/\s+/g, ' ').slice(0, 110); const s = stats.get(k) ?? [0, 0]; s[0] += performance.now() - t; s[1]++; stats.set(k, s); } }; };
for (const n of ['query', 'textRows', 'binaryRows', 'insertColumns', 'exec']) if (typeof db[n] === 'function') wrap(db, n);
const origTx = db.transaction.bind(db);
db.transaction = (fn) => origTx((tx) => { for (const n of ['query', 'textRows', 'binaryRows', 'insertColumns', 'exec']) if (typeof tx[n] === 'function') wrap(tx, n); return fn(tx); });
const importer = new Importer(db, 2);
const t = performance.now();
const results = await importSnapshots(importer, snapshots);
const ms = performance.now() - t;
console.log(results.map(r => r.status).join(','), (ms / N).toFixed(0), 'ms a list');
let sum = 0; for (const [, [v]] of stats) sum += v;
console.log('sql total', (sum / N).toFixed(0), 'ms a list');
for (const [k, [v, n]] of [...stats].sort((a, b) => b[1][0] - a[1][0]).slice(0, 25)) console.log((v / N).toFixed(1).padStart(7), String(n).padStart(5), k);
await db.close();
