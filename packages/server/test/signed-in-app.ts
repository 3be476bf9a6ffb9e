import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { Db } from '../src/db/driver.js';
import { addUser } from '../src/db/queries/users.js';

/** The app on `db` with a user signed in: its bearer header, for tests that drive the API. */
export async function signedInApp(
  db: Db,
  config: Partial<Config> = {},
  /** reads sent elsewhere (a ReadRouter over replicas) */
  reads?: Db,
  username = 'analyst',
): Promise<{ app: FastifyInstance; headers: Record<string, string> }> {
  const app = await buildApp({ db, reads, config: loadConfig({ logLevel: 'silent', ...config }, {}) });
  await addUser(db, username, 'secret-pass');
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: 'secret-pass' },
  });
  return { app, headers: { authorization: `Bearer ${login.json().token}` } };
}
