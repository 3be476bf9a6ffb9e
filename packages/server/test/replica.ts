import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = '/usr/lib/postgresql/15/bin';
const CONFIG = '/etc/postgresql/15/main';

/** Whether this machine can start a cluster and its streaming replica (root, Debian's PostgreSQL 15). */
export function canStartReplica(): boolean {
  return (
    process.getuid?.() === 0 &&
    ['pg_basebackup', 'initdb'].every((bin) => existsSync(`${BIN}/${bin}`)) &&
    existsSync(`${CONFIG}/pg_hba.conf`)
  );
}

export interface TestReplica {
  /** the URL of `database` on the replica */
  url(database: string): string;
  /** a superuser query on the replica (pausing replay and the like) */
  sql(query: string): Promise<unknown[]>;
  stop(): void;
  start(): void;
  /** stops it and removes its files */
  remove(): void;
}

const asPostgres = (args: string[]) =>
  execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });

/** A PostgreSQL cluster of the test's own (the base of a replica, small whatever the test cluster holds). */
export interface TestCluster {
  /** the URL of `database` on it, as the superuser root */
  url(database: string): string;
  /** stops it and removes its files */
  remove(): void;
}

const randomPort = () => 54_000 + Math.floor(Math.random() * 900);

/** A temporary dir owned by postgres (and readable by all, so its socket can be reached). */
function postgresDir(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(root, 0o755);
  const postgres = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  chownSync(root, postgres, -1);
  return root;
}

/**
 * A new cluster made for one test (`initdb`, its socket in its own dir, superuser root). A replica is
 * made of the whole cluster it copies: made of the shared test cluster it took as long as that cluster
 * is big (a 15 GB benchmark database left on it made the copy outlast its minute).
 */
export function startCluster(port = randomPort()): TestCluster {
  const root = postgresDir('cena-primary-');
  const data = join(root, 'data');
  asPostgres([`${BIN}/initdb`, '-A', 'trust', '-U', 'postgres', '-D', data]);
  const ctl = (...args: string[]) => asPostgres([`${BIN}/pg_ctl`, '-D', data, ...args]);
  ctl('-o', `-p ${port} -k ${root} -c listen_addresses=''`, '-l', join(root, 'log'), '-w', 'start');
  asPostgres([`${BIN}/createuser`, '-h', root, '-p', String(port), '-s', 'root']);
  return {
    url: (database) => `postgresql://root@localhost/${database}?host=${root}&port=${port}`,
    remove() {
      if (existsSync(join(data, 'postmaster.pid'))) ctl('-m', 'immediate', 'stop');
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A streaming replica of the cluster behind `primaryUrl`, made for one test: `pg_basebackup -R` into a
 * temporary dir (Debian keeps the configuration in /etc, so an empty postgresql.conf and, when the copy
 * has none, copies of the access files go beside it), started with `pg_ctl` on its own port and socket dir.
 */
export function startReplica(primaryUrl: string, port = randomPort()): TestReplica {
  const primary = new URL(primaryUrl);
  const host = primary.searchParams.get('host') ?? primary.hostname;
  const primaryPort = primary.searchParams.get('port') ?? (primary.port || '5432');
  const root = postgresDir('cena-replica-');
  const data = join(root, 'data');
  asPostgres([
    `${BIN}/pg_basebackup`,
    '-h',
    host,
    '-p',
    primaryPort,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    '-D',
    data,
  ]);
  writeFileSync(join(data, 'postgresql.conf'), '');
  for (const file of ['pg_hba.conf', 'pg_ident.conf'])
    if (!existsSync(join(data, file))) copyFileSync(join(CONFIG, file), join(data, file));
  execFileSync('chown', ['-R', 'postgres', root]);
  const ctl = (...args: string[]) => asPostgres([`${BIN}/pg_ctl`, '-D', data, ...args]);
  const start = () => {
    ctl('-o', `-p ${port} -k ${root} -c listen_addresses=''`, '-l', join(root, 'log'), '-w', 'start');
  };
  const running = () => existsSync(join(data, 'postmaster.pid'));
  start();
  const url = (database: string) => `postgresql://root@localhost/${database}?host=${root}&port=${port}`;
  return {
    url,
    async sql(query) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        return (await client.query(query)).rows;
      } finally {
        await client.end();
      }
    },
    stop: () => {
      if (running()) ctl('-m', 'immediate', 'stop');
    },
    start,
    remove() {
      if (running()) ctl('-m', 'immediate', 'stop');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
