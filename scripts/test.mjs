// Runs the whole suite and ends with one line "N passed, N failed" (totals of every suite).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

// the CLI and browser tests drive the built programs: build them first
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// the types of every package (the web app's build does not check them: `npm start` need not wait for it)
const typecheck = spawnSync('npm', ['run', 'typecheck'], { stdio: 'inherit' });
mkdirSync('.tmp', { recursive: true });
const report = '.tmp/vitest.json';
rmSync(report, { force: true });
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests;
  failed = result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
  if (!result.success && failed === 0) failed = 1;
} catch {
  failed = Math.max(1, failed);
}
// the type check counts as one test of its own
if (typecheck.status === 0) passed++;
else failed++;
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
