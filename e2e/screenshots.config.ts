import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

// `npm run screenshots`: only the README's screenshots (e2e/screenshots.shot.ts), with the suite's setup
export default defineConfig({ ...base, test: { ...base.test, include: ['e2e/screenshots.shot.ts'] } });
