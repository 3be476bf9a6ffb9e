/**
 * A client in a process of its own, for what the server's time should be read without this bench's own
 * process in it: sequential kept-alive POSTs, each body's bytes dropped as they come but the first, which
 * is parsed and checked (as autocannon or `curl -o /dev/null` take them). Usage:
 * `node lean-client.js <origin> <token> <path> <bodies JSON>`; prints each request's milliseconds as JSON.
 * The bench's process holds gigabytes of fixtures: receiving a 3.3 MB stats body there took it 10–15 ms a
 * request of its own (docs/performance.md).
 */
import http from 'node:http';

const [origin, token, path, bodiesJson] = process.argv.slice(2);
const bodies = JSON.parse(bodiesJson) as object[];
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(body: object, check: boolean): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const req = http.request(
      `${origin}/api${path}`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (check || res.statusCode !== 200) chunks.push(c);
        });
        res.on('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200)
            return fail(new Error(`${path}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          if (check && !(JSON.parse(text) as { allRoomsData?: unknown }).allRoomsData)
            return fail(new Error(`${path}: not a stats response`));
          done(ms);
        });
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

const times: number[] = [];
for (const [i, body] of bodies.entries()) times.push(await post(body, i === 0));
agent.destroy();
process.stdout.write(`${JSON.stringify(times)}\n`);
