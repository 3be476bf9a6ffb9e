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
  read: { may: ['read', 'analytics', 'db', 'lib'] },
  db: { may: ['db', 'lib', 'analytics'] },
  // what an import brings up to date (DESIGN §11.1): from the model, into the kept tables
  derive: { may: ['derive', 'analytics', 'db', 'lib'] },
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
    for (const file of files(join(SRC, 'routes')).filter((f) => f.endsWith('routes.ts'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/\.query(<[^>]*>)?\(\s*[`'"](select|insert|update|delete)/i);
    }
  });
});
