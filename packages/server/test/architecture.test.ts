import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers of docs/architecture.md, read off the import statements: a rule broken here is a leak the
// next engine would copy.

const SRC = new URL('../src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The top folder of src each relative import of a file reaches, e.g. `db`, `http`, `analytics`. */
function reaches(file: string): { target: string; line: string }[] {
  const text = readFileSync(file, 'utf8');
  const out: { target: string; line: string }[] = [];
  for (const m of text.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms)) {
    const absolute = join(file, '..', m[1]);
    out.push({ target: relative(SRC, absolute).split('/')[0], line: m[0].split('\n')[0] });
  }
  for (const m of text.matchAll(/^import[^;]*?from '([^.'][^']*)'/gms))
    out.push({ target: `npm:${m[1]}`, line: m[1] });
  return out;
}

const LAYERS: Record<string, { may: string[]; npm?: RegExp }> = {
  // pure rules of DESIGN §4/§10: plain data in, plain data out
  analytics: { may: ['analytics', 'lib'], npm: /^@cena-metra\/contract$/ },
  lib: { may: ['lib'], npm: /^(@cena-metra\/contract|node:.*)$/ },
  // loads from the database, caches per data version, serves bytes; knows nothing of HTTP
  read: {
    may: ['read', 'analytics', 'registry', 'db', 'lib'],
    npm: /^(@cena-metra\/contract|node:.*|lru-cache)$/,
  },
  // the registry's answers read, an object's state moved by them, matching (DESIGN §12.3): no storage
  registry: { may: ['registry', 'lib'], npm: /^(@cena-metra\/contract|node:.*)$/ },
  db: { may: ['db', 'lib', 'analytics'] },
  // what an import brings up to date (DESIGN §11.1): from the model, into the kept tables
  derive: { may: ['derive', 'analytics', 'registry', 'db', 'lib'] },
  ingest: { may: ['ingest', 'derive', 'analytics', 'db', 'lib'] },
  jobs: { may: ['jobs', 'db', 'lib'] },
};

describe('layers: imports flow one way', () => {
  for (const [layer, rule] of Object.entries(LAYERS)) {
    it(`${layer}/ imports only ${rule.may.join(', ')}${rule.npm ? ` and ${rule.npm}` : ''}`, () => {
      const dir = join(SRC, layer);
      let exists = true;
      try {
        statSync(dir);
      } catch {
        exists = false;
      }
      if (!exists) return;
      const leaks: string[] = [];
      for (const file of files(dir))
        for (const r of reaches(file)) {
          if (r.target.startsWith('npm:')) {
            if (rule.npm && !rule.npm.test(r.target.slice(4)))
              leaks.push(`${relative(SRC, file)}: ${r.line}`);
          } else if (!rule.may.includes(r.target)) leaks.push(`${relative(SRC, file)}: ${r.line}`);
        }
      expect(leaks).toEqual([]);
    });
  }

  it('analytics uses no Buffer, no database handle, no process', () => {
    for (const file of files(join(SRC, 'analytics'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/\bBuffer\b|\bDb\b|process\.env/);
    }
  });

  it('routes reach the database only through their queries and the read layer', () => {
    for (const file of files(join(SRC, 'routes'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(SQL);
    }
  });
});

/** A statement of SQL handed to the database: `.query(`select …`)`, `.exec('update …')`. */
const SQL = /\.(query|exec)(<[^>]*>)?\(\s*[`'"]\s*(select|insert|update|delete|with|analyze|create|alter)\b/i;

/** SQL in a string: a statement's first words, at the start of a literal. */
const SQL_TEXT =
  /[`'"]\s*(select\s[^`'"]*\bfrom\b|select\s+\d|insert\s+into\s|update\s+\w+\s+set\s|delete\s+from\s|with\s+\w+\s+as\s*\(|create\s+(table|index)\s|alter\s+table\s|analyze\b|vacuum\b|copy\s+\w)/i;
/** A statement handed to a database handle, whatever its text. */
const DB_CALL =
  /\b(db|tx|this\.db|host\.db)\.(query|exec|textRows|binaryRows|binaryEach|insertColumns)\s*[<(]/;

/** The folders and files where requests, commands and messages come in (DESIGN §12.2). */
const ENTRY_POINTS = [
  'routes',
  'cli',
  'telegram/bot.ts',
  'use-cases/collect-job.ts',
  'server.ts',
  'app.ts',
  'server-host.ts',
];
const entryFiles = () =>
  ENTRY_POINTS.flatMap((p) => (p.endsWith('.ts') ? [join(SRC, p)] : files(join(SRC, p))));

describe('one way in (DESIGN §12.2)', () => {
  it('no SQL text outside db/: every statement lives in a query module by domain', () => {
    const leaks: string[] = [];
    for (const file of files(SRC)) {
      if (relative(SRC, file).startsWith('db/')) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(new RegExp(SQL_TEXT.source, 'gi')))
        leaks.push(`${relative(SRC, file)}: ${m[0]}`);
      for (const m of text.matchAll(new RegExp(DB_CALL.source, 'g')))
        leaks.push(`${relative(SRC, file)}: ${m[0]}`);
    }
    expect(leaks).toEqual([]);
  });

  it('the SQL detector finds the statements where they are (db/queries), so a clean tree is no blind test', () => {
    const found = files(join(SRC, 'db', 'queries')).filter((f) => SQL_TEXT.test(readFileSync(f, 'utf8')));
    expect(found.length).toBeGreaterThanOrEqual(20);
    for (const sample of [
      "db.query('select 1 from project where id = $1', [id])",
      '`insert into flat (project_id) values ($1)`',
      'tx.query(`update source set url = $2 where id = $1`)',
      '"delete from session where user_id = $1"',
      '`\n  with recent as (select 1) select * from recent`',
    ])
      expect(SQL_TEXT.test(sample) || DB_CALL.test(sample), sample).toBe(true);
  });

  it('routes, the CLI and the bot reach storage only through use-cases/: no db/queries import', () => {
    const leaks: string[] = [];
    const entries = [
      ...files(join(SRC, 'routes')),
      ...files(join(SRC, 'cli')),
      join(SRC, 'telegram', 'bot.ts'),
    ];
    for (const file of [
      ...entries,
      join(SRC, 'server.ts'),
      join(SRC, 'app.ts'),
      join(SRC, 'server-host.ts'),
    ]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from '((?:\.\.?\/)+)db\/queries\/[^']+'/g))
        leaks.push(`${relative(SRC, file)}: ${m[0]}`);
    }
    expect(leaks).toEqual([]);
  });

  it('no SQL in the routes, the CLI or the bot: their queries live by domain in db/queries or beside their act', () => {
    const leaks = entryFiles().filter((f) => SQL.test(readFileSync(f, 'utf8')));
    expect(leaks.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('the bot, the CLI, the jobs and the demo never import a route module', () => {
    const leaks: string[] = [];
    for (const dir of ['cli', 'telegram', 'collect', 'jobs', 'demo', 'use-cases', 'db', 'read', 'watch'])
      for (const file of files(join(SRC, dir)))
        for (const r of reaches(file))
          if (r.target === 'routes') leaks.push(`${relative(SRC, file)}: ${r.line}`);
    expect(leaks).toEqual([]);
  });

  it('an import, a collection and what follows them have one door: use-cases/', () => {
    // who may apply a batch, collect a source, audit an import or compute the alerts
    const doors: [RegExp, string[]][] = [
      [/\bimport(Batch|Snapshots)\(/, ['ingest/batch.ts', 'collect/collector.ts', 'use-cases/imports.ts']],
      [/\b(collectSource|reparseSource)\(/, ['collect/collector.ts', 'use-cases/collect.ts']],
      [/\bauditImport\(/, ['db/queries/audit.ts', 'use-cases/imports.ts', 'use-cases/collect.ts']],
      // a server computes at start the alerts of what came in while it was down
      [/\bcomputeAlerts\(/, ['watch/alerts.ts', 'use-cases/host.ts', 'server-host.ts', 'server.ts']],
      [/\banalyzeAfterBulkLoad\(/, ['db/migrate.ts', 'use-cases/imports.ts']],
      // the registry's objects are kept only through its door (and made again by its rebuild there)
      [/\b(keepObjectDay|replayObject)\(/, ['derive/registry.ts', 'use-cases/registry.ts']],
    ];
    const leaks: string[] = [];
    for (const file of files(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const [call, allowed] of doors)
        if (call.test(text) && !allowed.includes(relative(SRC, file)))
          leaks.push(`${relative(SRC, file)}: ${call}`);
    }
    expect(leaks).toEqual([]);
  });

  it('the acts know no HTTP: use-cases/ imports no Fastify and no route', () => {
    for (const file of files(join(SRC, 'use-cases')))
      for (const r of reaches(file))
        expect(`${relative(SRC, file)} ${r.target}`).not.toMatch(/ (npm:fastify|routes|http)$/);
  });
});
