import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// bulletproof-react's one-way imports: shared (components, lib, api) → features → app; never feature →
// feature. `app/` holds the router, providers and layout; pages live in their features.

const SRC = new URL('./', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Where each relative import of a file lands, as a path under src (e.g. `features/flats/flat-card`). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) =>
    relative(SRC, join(file, '..', m[1])),
  );
}

describe('web layers', () => {
  it('shared code (components, lib, api) imports no feature and nothing of app', () => {
    const leaks = ['components', 'lib', 'api'].flatMap((dir) =>
      files(join(SRC, dir)).flatMap((f) =>
        imports(f)
          .filter((t) => t.startsWith('features/') || t.startsWith('app/'))
          .map((t) => `${relative(SRC, f)} → ${t}`),
      ),
    );
    expect(leaks).toEqual([]);
  });

  it('a feature imports no other feature and nothing of app', () => {
    const leaks = files(join(SRC, 'features')).flatMap((f) => {
      const own = relative(SRC, f).split('/')[1];
      return imports(f)
        .filter((t) => t.startsWith('app/') || (t.startsWith('features/') && t.split('/')[1] !== own))
        .map((t) => `${relative(SRC, f)} → ${t}`);
    });
    expect(leaks).toEqual([]);
  });

  it('app/ is the router, its error page, guards and layout: no page bodies', () => {
    expect(readdirSync(join(SRC, 'app')).sort()).toEqual([
      'error-page.tsx',
      'guards.tsx',
      'layout.tsx',
      'menu.ts',
      'router.tsx',
    ]);
  });

  it('every answer of the API is parsed by its contract schema at the door (DESIGN §12.2)', () => {
    const leaks: string[] = [];
    for (const f of files(SRC)) {
      if (f.endsWith('lib/api-client.ts')) continue;
      const text = readFileSync(f, 'utf8');
      // no answer typed by a cast: request<T>(…) or a fetched body `as` a type
      if (/\brequest</.test(text)) leaks.push(`${relative(SRC, f)}: request<T>`);
      for (const m of text.matchAll(/\brequest\(\s*([A-Za-z_]+)/g))
        if (!/Schema$|^schema$/.test(m[1])) leaks.push(`${relative(SRC, f)}: request(${m[1]}, …)`);
      // (the template's sample page reads a static file of its own, not an answer of the API)
      if (/\.json\(\)\s*(as|\)\s*as)\s/.test(text) && !f.includes('features/samples/'))
        leaks.push(`${relative(SRC, f)}: .json() as`);
    }
    expect(leaks).toEqual([]);
  });

  it('each feature owns its API hooks: what src/api keeps is used by two parts or more (DESIGN §12.2)', () => {
    const parts = (file: string) => {
      const [top, name] = relative(SRC, file).split('/');
      return top === 'features' ? `features/${name}` : top;
    };
    const single: string[] = [];
    for (const api of files(join(SRC, 'api'))) {
      const text = readFileSync(api, 'utf8');
      const module = relative(SRC, api).replace(/\.ts$/, '');
      for (const [, name] of text.matchAll(/^export (?:const|function|async function) (\w+)/gm)) {
        const users = new Set(
          files(SRC)
            .filter((f) => !f.startsWith(join(SRC, 'api')) && imports(f).includes(module))
            .filter((f) => new RegExp(`\\b${name}\\b`).test(readFileSync(f, 'utf8')))
            .map(parts),
        );
        // a helper of the shared hooks themselves counts as a part (useDevelopers → developersQueryOptions)
        const inside = (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1;
        if (users.size + (inside ? 1 : 0) < 2 && !(users.has('app') && users.size === 1))
          single.push(`${module}.${name}: ${[...users].join(', ') || 'unused'}`);
      }
    }
    expect(single).toEqual([]);
  });

  it('a feature’s hooks sit in its api.ts: no request() in its pages and components', () => {
    const leaks = files(join(SRC, 'features'))
      .filter((f) => !f.endsWith('/api.ts') && !f.includes('features/samples/'))
      .filter((f) => /\brequest(Nothing|File)?\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(leaks).toEqual([]);
  });

  it('every table is the one table with a column model: no <table> or DataTable outside it (DESIGN §12.2)', () => {
    const leaks = files(SRC)
      .filter((f) => !/components\/(column-table|data-table)\.tsx$/.test(f))
      .filter((f) => /<table\b|<DataTable\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(leaks).toEqual([]);
    // and the model reaches every page with a table
    const users = files(join(SRC, 'features')).filter((f) => /<ColumnTable\b/.test(readFileSync(f, 'utf8')));
    expect(users.length).toBeGreaterThanOrEqual(14);
  });

  it('one period control: a page with a period uses DateRange, never two DateInputs of its own', () => {
    const leaks = files(join(SRC, 'features'))
      .filter((f) => (readFileSync(f, 'utf8').match(/<DateInput\b/g) ?? []).length > 1)
      .map((f) => relative(SRC, f));
    expect(leaks).toEqual([]);
    const pages = files(join(SRC, 'features')).filter((f) => /<DateRange\b/.test(readFileSync(f, 'utf8')));
    expect(pages.length).toBeGreaterThanOrEqual(4);
  });
});
