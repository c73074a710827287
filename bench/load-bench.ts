/**
 * The service under load (`npx tsx bench/run.ts load`): bots play to the counting TS3 server (its own
 * process) from the bot process, which here is the whole service as `make run` composes it: the api on
 * the main thread, the daemon on a thread of its own. Windows of the same length, side by side:
 *   1. the bots alone;
 *   2. the bots while browser-like WebSocket clients (session cookie, same-site Origin) stay connected,
 *      a control client changes volumes (a state push to every socket), and REST clients in two other
 *      processes list bots and read one bot's status at the pace people would (200 requests/s);
 *   3. the same with the REST clients sending as fast as answers come (a stress test).
 * The REST clients run niced (19): they stand for clients elsewhere, whose CPU is not the service's.
 * Printed: late and missed audio frames (the daemon thread's counts) and late arrivals (the server's
 * view) per window; REST requests/s, p99 and failures; socket messages/s; sockets opened, refused and dropped.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { openDb } from '../shared/db/client';
import { setupAdminOverHttp } from '../testkit/http-admin';
import { preparedDataDir } from '../testkit/run-service';
import { type LoadResult, loadFromAnotherProcess } from './http-load';
import { BenchMedia } from './runtime/bench-media';
import { BOT_PROCESS_OPS, type BotSpec, COUNTING_SERVER_OPS } from './runtime/protocol';
import { RpcChild } from './runtime/rpc';

const BOTS = 40;
const SOCKETS = 100;
/** Per REST target; the two targets run at once, each from its own client process. */
const REST_CONNECTIONS = 8;
const WARMUP_MS = 3000;
const WINDOW_MS = 10_000;
/** How often the control client changes one bot's volume (a state push to every socket). */
const CONTROL_EVERY_MS = 100;
const SONG_SECONDS = 120;
/**
 * The load windows: total REST requests/s, or undefined for as fast as answers come. 200/s is what
 * the 100 connected browsers would send if each person clicked twice a second.
 */
const LOADS: [phase: string, ratePerSecond: number | undefined][] = [
  ['+ browsers (REST 200/s)', 200],
  ['+ REST flat out', undefined],
];
const PASSWORD = 'load bench password';
const CLIENT_NICENESS = 19;

const media = BenchMedia.render();
const dataDir = await preparedDataDir('load-bench-');
const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
const server = RpcChild.start('bench/runtime/ts3-counting-server.ts', COUNTING_SERVER_OPS, {
  label: 'the counting TS3 server',
  env: { LOG_LEVEL: 'error' },
});
const service = RpcChild.start('bench/runtime/bot-process.ts', BOT_PROCESS_OPS, {
  label: 'the service',
  env: { LOG_LEVEL: 'error' },
});

interface SocketTally {
  opened: number;
  refused: number;
  dropped: number;
  messages: number;
}

/** Browser-like sockets: open them all, count what arrives, and any close we did not ask for. */
class SocketCrowd {
  private readonly sockets: WebSocket[] = [];
  private closing = false;
  readonly tally: SocketTally = { opened: 0, refused: 0, dropped: 0, messages: 0 };

  async open(url: string, headers: Record<string, string>, count: number): Promise<void> {
    await Promise.all(
      Array.from({ length: count }, async () => {
        const socket = new WebSocket(url, { headers });
        socket.on('message', () => this.tally.messages++);
        const opened = await new Promise<boolean>((resolve) => {
          socket.once('open', () => resolve(true));
          socket.once('error', () => resolve(false));
        });
        if (!opened) {
          this.tally.refused++;
          return;
        }
        this.tally.opened++;
        this.sockets.push(socket);
        socket.once('close', () => {
          if (!this.closing) this.tally.dropped++;
        });
      }),
    );
  }

  close(): void {
    this.closing = true;
    for (const socket of this.sockets) socket.terminate();
  }
}

/** Changes the volume of the bots in turn until `untilMs`; answers other than 200 are counted. */
async function controlVolumes(
  base: string,
  headers: Record<string, string>,
  botIds: string[],
  untilMs: number,
) {
  let sent = 0;
  let failures = 0;
  while (performance.now() < untilMs) {
    const botId = botIds[sent % botIds.length]!;
    const answer = await fetch(`${base}/api/player/${botId}/volume`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ volume: 40 + (sent % 20) }),
    });
    await answer.arrayBuffer();
    if (answer.status !== 200) failures++;
    sent++;
    await sleep(CONTROL_EVERY_MS);
  }
  return { sent, failures };
}

async function measureWindow() {
  await Promise.all([server.call('startWindow', {}), service.call('startWindow', {})]);
  await sleep(WINDOW_MS);
  const [heard, sent] = await Promise.all([server.call('take', {}), service.call('take', {})]);
  return { heard, sent };
}

type Window = Awaited<ReturnType<typeof measureWindow>>;
interface Row extends Window {
  phase: string;
  rest?: LoadResult[];
  socketMessages?: number;
}

/** One window with REST and control load on top of the connected sockets. */
async function underLoad(options: {
  base: string;
  browser: Record<string, string>;
  botIds: string[];
  crowd: SocketCrowd;
  ratePerSecond: number | undefined;
}) {
  const { base, browser, botIds, crowd, ratePerSecond } = options;
  const plan = {
    headers: browser,
    connections: REST_CONNECTIONS,
    warmupMs: WARMUP_MS,
    durationMs: WINDOW_MS,
    ...(ratePerSecond ? { ratePerSecond: ratePerSecond / 2 } : {}),
    // They stand for browsers and scripts elsewhere: their own CPU is not the service's to give.
    niceness: CLIENT_NICENESS,
  };
  const rest = Promise.all([
    loadFromAnotherProcess({ ...plan, url: `${base}/api/bot` }),
    loadFromAnotherProcess({ ...plan, url: `${base}/api/bot/${botIds[0]}` }),
  ]);
  const control = controlVolumes(base, browser, botIds, performance.now() + WARMUP_MS + WINDOW_MS);
  await sleep(WARMUP_MS);
  const messagesBefore = crowd.tally.messages;
  const window = await measureWindow();
  const socketMessages = crowd.tally.messages - messagesBefore;
  const volumes = await control;
  if (volumes.failures > 0) throw new Error(`${volumes.failures} volume changes were not answered 200`);
  return { ...window, rest: await rest, socketMessages };
}

const pct = (value: number) => `${value.toFixed(3)} %`;
const ms = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(1));

try {
  const { port, rootPublicKey } = await server.call('start', { rooms: BOTS });
  const { apiPort } = await service.call('start', {
    dataDir,
    serverPort: port,
    licenseRoot: rootPublicKey,
    serveApi: true,
  });
  if (apiPort === undefined) throw new Error('the service did not serve the api');
  const base = `http://127.0.0.1:${apiPort}`;
  const specs: BotSpec[] = [];
  for (let i = 0; i < BOTS; i++)
    specs.push({
      name: `Load${i}`,
      channel: `Room${i}`,
      song: await media.botSong(db, dataDir, i, SONG_SECONDS),
    });
  await service.call('addBots', { bots: specs });

  // The browser's credentials: its session cookie, and an Origin of the page's own site.
  const cookie = await setupAdminOverHttp(base, PASSWORD);
  const browser = { cookie, origin: base };
  const listed = (await (await fetch(`${base}/api/bot`, { headers: browser })).json()) as {
    bots: { id: string }[];
  };
  const botIds = listed.bots.map((bot) => bot.id);
  if (botIds.length !== BOTS) throw new Error(`the api lists ${botIds.length} bots, not ${BOTS}`);

  await sleep(WARMUP_MS);
  const rows: Row[] = [{ phase: 'bots alone', ...(await measureWindow()) }];
  const crowd = new SocketCrowd();
  await crowd.open(`ws://127.0.0.1:${apiPort}/ws`, browser, SOCKETS);
  for (const [phase, ratePerSecond] of LOADS) {
    rows.push({ phase, ...(await underLoad({ base, browser, botIds, crowd, ratePerSecond })) });
  }
  crowd.close();

  console.log(
    `${BOTS} bots playing, ${SOCKETS} WebSocket clients connected, a volume change every ${CONTROL_EVERY_MS} ms ` +
      `(a state push to every socket); REST: GET /api/bot and GET /api/bot/{id} with the session cookie from two ` +
      `client processes (${REST_CONNECTIONS} connections each), paced or as fast as answers come; windows of ${WINDOW_MS / 1000} s`,
  );
  console.table(
    rows.map(({ phase, heard, sent, rest, socketMessages }) => ({
      phase,
      'REST req/s': rest ? Math.round(rest.reduce((sum, r) => sum + r.perSecond, 0)) : '-',
      'REST p99 ms': rest ? ms(Math.max(...rest.map((r) => r.p99Ms))) : '-',
      'REST failures': rest ? rest.reduce((sum, r) => sum + r.failures, 0) : '-',
      'WS msgs/s': socketMessages === undefined ? '-' : Math.round(socketMessages / (WINDOW_MS / 1000)),
      'late >10 ms': pct(sent.lateness.latePercent),
      'p99 / max ms': `${ms(sent.lateness.p99Ms)} / ${ms(sent.lateness.maxMs)}`,
      missed: sent.missed,
      'server late': pct(heard.lateness.latePercent),
      'packets/bot/s': (heard.packets / BOTS / (WINDOW_MS / 1000)).toFixed(1),
    })),
  );
  const { opened, refused, dropped } = crowd.tally;
  console.log(`WebSocket: ${opened} opened, ${refused} refused, ${dropped} dropped`);
} finally {
  await service.stop();
  await server.stop();
  db.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
}
