/**
 * The REST → bus → daemon round trip in the scaled-out layout, beside what NATS alone costs: a real
 * nats-server, an api process and a daemon process (their own entries, one libSQL file), and this
 * process as the client. One request at a time, so each figure is a round trip and not a queue:
 *   - bare NATS: a request/reply echo with the plain nats.js client (requester and responder here),
 *   - GET /api/health: HTTP and the api's middleware, no bus,
 *   - GET /api/bot/{id}: HTTP, authentication (session cookie), the api's bot client, NATS to the
 *     daemon, the daemon's status handler, and back.
 * The targets take turns in rounds, so background load on the machine colours them alike.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { connect } from 'nats';
import { botRow } from '../tests/helpers/bot-row';
import { CookieJar } from '../tests/helpers/cookie-jar';
import { startNatsServer } from '../tests/helpers/nats-server';
import { preparedDataDir, runDaemon, runService } from '../tests/helpers/run-service';
import { p50p99 } from './runtime/percentiles';

const ROUNDS = 5;
const REQUESTS_PER_ROUND = 300;
const WARMUP_REQUESTS = 200;
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
    async () => {
      const response = await fetch(`${api.baseUrl}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    };
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
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const list = times.get(target.name)!;
      for (let i = 0; i < REQUESTS_PER_ROUND; i++) {
        const start = performance.now();
        await target.send();
        list.push(performance.now() - start);
      }
    }
  }
  subscription.unsubscribe();

  console.log(
    `one request at a time; ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND} per target after ${WARMUP_REQUESTS} warm-up`,
  );
  console.table(
    targets.map((target) => {
      const { p50, p99 } = p50p99(times.get(target.name)!);
      return { target: target.name, 'p50 ms': p50.toFixed(2), 'p99 ms': p99.toFixed(2) };
    }),
  );
  console.log(
    'The api process, the daemon process, nats-server and this client share the machine; the bot row is answered by the daemon (no TS3 connection).',
  );
} finally {
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
