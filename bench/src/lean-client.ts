/**
 * A client in a process of its own, for what the server's time should be read without this bench's own
 * process in it: sequential kept-alive requests over `node:http`, each timed from sent to its last byte,
 * each body's bytes dropped as they come but a checked one's (parsed, as autocannon or `curl -o /dev/null`
 * take them). It signs in first when asked (not timed) — its own first request, as a browser's is.
 * Usage: `node lean-client.js` with a `LeanRun` as JSON on stdin; prints each request's milliseconds as JSON.
 * The bench's process holds gigabytes of fixtures: receiving a 3.3 MB stats body there took it 10–15 ms a
 * request of its own, and undici's `fetch` passes each 64 KB of a body through a WHATWG stream — ~70 ms of a
 * first 3.3 MB answer that the server had sent in ~75 (curl's figure; docs/performance.md).
 */
import http from 'node:http';

export interface LeanRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  /** a property the parsed answer must have: the body is kept and checked (after its time is taken) */
  expect?: string;
}

export interface LeanRun {
  origin: string;
  /** a session's token, or a user to sign in as (before the timed requests) */
  token?: string;
  signIn?: { username: string; password: string };
  requests: LeanRequest[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(
  origin: string,
  token: string | null,
  r: LeanRequest,
  keep: boolean,
): Promise<{ ms: number; text: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const req = http.request(
      `${origin}/api${r.path}`,
      {
        method: r.method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(r.body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (keep || res.statusCode !== 200) chunks.push(c);
        });
        res.on('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200)
            return fail(new Error(`${r.path}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          done({ ms, text });
        });
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(r.body ? JSON.stringify(r.body) : undefined);
  });
}

async function run(o: LeanRun): Promise<number[]> {
  let token = o.token ?? null;
  if (o.signIn) {
    const login = { method: 'POST', path: '/auth/login', body: o.signIn } as const;
    token = (JSON.parse((await send(o.origin, null, login, true)).text) as { token: string }).token;
  }
  const times: number[] = [];
  for (const r of o.requests) {
    const { ms, text } = await send(o.origin, token, r, r.expect !== undefined);
    if (r.expect !== undefined && !Object.hasOwn(JSON.parse(text) as object, r.expect))
      throw new Error(`${r.path}: the answer has no «${r.expect}»`);
    times.push(ms);
  }
  agent.destroy();
  return times;
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => {
  input += d;
});
process.stdin.on('end', () => {
  run(JSON.parse(input) as LeanRun).then(
    (times) => process.stdout.write(`${JSON.stringify(times)}\n`),
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
});
