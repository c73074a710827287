/**
 * The REST → bus → daemon round trip in the scaled-out layout, beside what NATS alone costs: a real
 * nats-server, an api process and a daemon process (their own entries, one libSQL file), and this
 * process as the client. One request at a time, so each figure is a round trip and not a queue:
 *   - bare NATS: a request/reply echo with the plain nats.js client (requester and responder here),
 *   - GET /api/health: HTTP and the api's middleware, no bus,
 *   - GET /api/bot/{id}: HTTP, authentication (session cookie), the api's bot client, NATS to the
 *     daemon, the daemon's status handler, and back.
 *
 * How, and why (this machine is shared, and its load comes in bursts of a second or more):
 *   - The targets take turns request by request, so a burst colours all three alike. Taking turns
 *     in blocks of a few hundred requests let one burst land on one target, and the ratio of two
 *     p99s swung from 2.1 to 5.5 between runs of nearly the same code.
 *   - Each request starts after a short pause, so none pays for the work its predecessor (of any
 *     target) left behind: a turn without the pause hands the api's after-answer work to the next
 *     bare NATS request.
 *   - HTTP goes through node:http with one kept-alive connection, the lean client, as the bare NATS
 *     row uses the lean nats.js client: fetch (undici) spent about 0.5 ms of CPU of its own on a
 *     request here, twice what the api spends on `GET /api/health`.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'nats';
import { botRow } from '../testkit/bot-row';
import { CookieJar } from '../testkit/cookie-jar';
import { startNatsServer } from '../testkit/nats-server';
import { preparedDataDir, runDaemon, runService } from '../testkit/run-service';
import { p50p99 } from './runtime/percentiles';

const REQUESTS_PER_TARGET = 3000;
const WARMUP_REQUESTS = 300;
/** Long enough for the api, the daemon and nats-server to finish what a request left them. */
const PAUSE_MS = 1;
const DAEMON_READY_TIMEOUT_MS = 60_000;

const botId = randomUUID();
const dataDir = await preparedDataDir('bus-bench-', [botRow(botId, 'Remote')]);
// JetStream: daemons keep their bot ownership leases in it.
const nats = await startNatsServer({ jetstream: true });
const env = { DATA_DIR: dataDir, NATS_URL: nats.url, LOG_LEVEL: 'error' };
const api = await runService(env, ['npx', 'tsx', 'api/main.ts']);
const daemon = runDaemon(env);
const requester = await connect({ servers: nats.url });
const responder = await connect({ servers: nats.url });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

try {
  const jar = new CookieJar();
  const setup = await fetch(`${api.baseUrl}/api/session/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'long enough pw' }),
  });
  if (setup.status !== 201) throw new Error(`setup answered ${setup.status}`);
  jar.store(setup);
  const cookie = jar.header() ?? '';

  const get =
    (path: string, headers: Record<string, string> = {}) =>
    () =>
      new Promise<void>((resolve, reject) => {
        const request = httpRequest(`${api.baseUrl}${path}`, { headers, agent }, (response) => {
          response.resume();
          response.once('end', () =>
            response.statusCode === 200
              ? resolve()
              : reject(new Error(`GET ${path} answered ${response.statusCode}`)),
          );
        });
        request.once('error', reject);
        request.end();
      });
  const getBot = get(`/api/bot/${botId}`, { cookie });
  await untilAnswered(getBot);

  const subscription = responder.subscribe('bench.echo', {
    callback: (_error, msg) => msg.respond(msg.data),
  });
  await responder.flush();
  const payload = new TextEncoder().encode(JSON.stringify({ op: 'status', args: {} }));
  const targets = [
    {
      name: 'bare NATS request/reply',
      send: async () => void (await requester.request('bench.echo', payload)),
    },
    { name: 'GET /api/health (no bus)', send: get('/api/health') },
    { name: 'GET /api/bot/{id} (cookie → NATS → daemon)', send: getBot },
  ];
  const times = new Map(targets.map((target) => [target.name, [] as number[]]));
  for (const target of targets) for (let i = 0; i < WARMUP_REQUESTS; i++) await target.send();
  for (let i = 0; i < REQUESTS_PER_TARGET; i++) {
    for (const target of targets) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      const start = performance.now();
      await target.send();
      times.get(target.name)!.push(performance.now() - start);
    }
  }
  subscription.unsubscribe();

  console.log(
    `one request at a time, the targets in turn, ${PAUSE_MS} ms apart; ${REQUESTS_PER_TARGET} per target after ${WARMUP_REQUESTS} warm-up`,
  );
  const figures = targets.map((target) => ({ target: target.name, ...p50p99(times.get(target.name)!) }));
  console.table(
    figures.map(({ target, p50, p99 }) => ({ target, 'p50 ms': p50.toFixed(2), 'p99 ms': p99.toFixed(2) })),
  );
  const [bare, , bot] = figures;
  console.log(`REST → bus → daemon p99 / bare NATS p99: ${(bot!.p99 / bare!.p99).toFixed(2)}× (goal ≤ 3×)`);
  console.log(
    'The api process, the daemon process, nats-server and this client share the machine; the bot row is answered by the daemon (no TS3 connection).',
  );
} finally {
  agent.destroy();
  await requester.close();
  await responder.close();
  await daemon.stop();
  await api.stop();
  await nats.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The daemon has no port: it is ready once the api gets the bot's status through it. */
async function untilAnswered(send: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + DAEMON_READY_TIMEOUT_MS;
  for (;;) {
    try {
      return await send();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
