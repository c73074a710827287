/**
 * SIGTERM stops the service within 10 s in every state, with the real entries as operators run them
 * (`make run`, `node --import tsx main.ts`, and scaled out `api/main.ts` + `daemon/main.ts` over a real
 * `nats-server -js`), a TS3 test server in this process and one libSQL file:
 * - idle;
 * - a bot playing an upload, browser-like WebSockets (session cookie + Origin), an idle keep-alive
 *   connection and a request whose body never ends;
 * - the bot's voice server gone silent;
 * - the database write-locked by another process;
 * - NATS killed under a scaled-out api and daemon;
 * - and a second SIGTERM during a slow shutdown, which exits at once.
 * Saved queues are on. Each start after a stop checks that the bot's queue and position came back
 * from where the stop left them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { HTTP_GRACE_MS } from '../../api/server';
import { type ApiClient, createApiClient } from '../../openapi/client';
import { type Db, openDb } from '../../shared/db/client';
import { bots, queueSnapshots } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { WS_CLOSE_GOING_AWAY, WsMessageSchema } from '../../shared/ws-messages';
import { PASSWORD } from '../../testkit/accounts';
import { botRow } from '../../testkit/bot-row';
import { CookieJar, sendingCookies } from '../../testkit/cookie-jar';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import {
  type ProcessEnd,
  preparedDataDir,
  type RunningService,
  runDaemon,
  runService,
} from '../../testkit/run-service';
import { addToneUpload } from '../../testkit/tone-uploads';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { holdWriteLock } from '../hardening/db-lock';
import { shutdownLog } from './shutdown-log';

/** What operators are promised. */
const STOP_DEADLINE_MS = 10_000;
const MAIN = ['node', '--import', 'tsx', 'main.ts'];
const NICKNAME = 'Stopper';

const botId = randomUUID();
const rootSecret = randomBytes(32);
const jar = new CookieJar();
const running: RunningService[] = [];
const servers: Ts3TestServer[] = [];
let nats: NatsServerHandle | undefined;
let dataDir: string;
let db: Db;
let env: Record<string, string>;
let songs: Song[];
/** The bot's sessions on the voice servers, and those that ended, by client id. */
const botSessions: number[] = [];
const ended = new Map<number, string>();

beforeAll(async () => {
  dataDir = await preparedDataDir('tsmb-shutdown-', [{ ...botRow(botId, NICKNAME), autoStart: true }]);
  db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  await useVoiceServer();
  env = { DATA_DIR: dataDir, TS3_LICENSE_ROOT: servers[0]!.rootPublicKey };
  songs = [
    await addToneUpload(db, dataDir, 'First', [{ frequencyHz: 440, seconds: 90 }]),
    await addToneUpload(db, dataDir, 'Second', [{ frequencyHz: 330, seconds: 90 }]),
  ];
});

afterAll(async () => {
  await Promise.all(running.map((service) => service.kill()));
  await nats?.stop();
  await Promise.all(servers.map((server) => server.close()));
  db?.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A fresh voice server (same license root) for the bot, after the last one was made to vanish. */
async function useVoiceServer(): Promise<Ts3TestServer> {
  const server = await Ts3TestServer.start({ rootSecret });
  server.on('clientConnected', ({ clientId, nickname }) => {
    if (nickname === NICKNAME) botSessions.push(clientId);
  });
  server.on('clientDisconnected', ({ clientId, reason }) => ended.set(clientId, reason));
  servers.push(server);
  await db.update(bots).set({ serverPort: server.port }).where(eq(bots.id, botId));
  return server;
}

async function start(command = MAIN, extraEnv: Record<string, string> = {}): Promise<RunningService> {
  const service = await runService({ ...env, ...extraEnv }, command);
  running.push(service);
  return service;
}

function apiOf(service: RunningService): ApiClient {
  return createApiClient({ baseUrl: service.baseUrl, fetch: sendingCookies(jar, fetch) });
}

const until = (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    },
    { timeout: timeoutMs, interval: 100 },
  );

interface Stopped extends ProcessEnd {
  /** performance.now() when the signal went out, and how long the process took to exit after it. */
  sentAt: number;
  ms: number;
}

/** Sends the signal to the service's process group and waits (up to 20 s) for the process to end. */
async function stop(service: RunningService, signal: NodeJS.Signals = 'SIGTERM'): Promise<Stopped> {
  const sentAt = performance.now();
  service.signal(signal);
  const end = await Promise.race([
    service.exited,
    sleep(20_000).then(() => {
      throw new Error(`still running 20 s after ${signal}:\n${service.output().slice(-3000)}`);
    }),
  ]);
  return { ...end, sentAt, ms: performance.now() - sentAt };
}

async function botStatus(api: ApiClient) {
  const { data } = await api.GET('/api/bot/{id}', { params: { path: { id: botId } } });
  return data;
}

async function snapshot() {
  const row = await db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, botId) });
  if (!row) throw new Error('no queue snapshot');
  return { songIds: (JSON.parse(row.songs) as Song[]).map((s) => s.id), ...row };
}

/**
 * The bot is back on its voice server after a start, playing its saved queue from the saved position
 * on (it resumes there, so the position it reports is at least the saved one).
 */
async function expectQueueAndPositionBack(api: ApiClient, saved: { positionSeconds: number }) {
  await until(
    async () => {
      const status = await botStatus(api);
      return !!status?.playing && status.elapsed >= saved.positionSeconds + 1;
    },
    30_000,
    `the bot to play on from ${saved.positionSeconds} s`,
  );
  const { data } = await api.GET('/api/player/{botId}/queue', { params: { path: { botId } } });
  expect(data?.queue.map((song) => song.id)).toEqual(songs.map((song) => song.id));
  expect(data?.status.currentSong?.id).toBe(songs[0]!.id);
}

function expectCleanStop(stopped: Stopped, service: RunningService) {
  // On a failure the shutdown's own log says which step failed or overran.
  expect({ code: stopped.code, signal: stopped.signal }, shutdownLog(service).join('; ')).toEqual({
    code: 0,
    signal: null,
  });
  expect(stopped.ms).toBeLessThan(STOP_DEADLINE_MS);
  expect(shutdownLog(service)).toContain('stopped');
}

/** A browser-like WebSocket (session cookie, same-site Origin), once greeted: its close code and time. */
async function openSocket(
  service: RunningService,
): Promise<{ closed: Promise<{ code: number; at: number }> }> {
  const ws = new WebSocket(`${service.baseUrl.replace('http', 'ws')}/ws`, {
    headers: { cookie: jar.header()!, origin: service.baseUrl },
  });
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    ws.once('close', (code) => resolve({ code, at: performance.now() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('message', (data) => {
      const first = WsMessageSchema.safeParse(JSON.parse(String(data)));
      if (first.success && first.data.type === 'hello') resolve();
      else reject(new Error(`expected a hello, got ${String(data)}`));
    });
    ws.once('error', reject);
  });
  return { closed };
}

/** When the socket under a connection closed. */
function socketClosed(socket: Socket): { closed: Promise<number> } {
  return { closed: new Promise((resolve) => socket.once('close', () => resolve(performance.now()))) };
}

/** A keep-alive connection left idle after one answered request. */
function idleKeepAlive(service: RunningService): Promise<{ closed: Promise<number> }> {
  const agent = new Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    httpRequest(`${service.baseUrl}/api/health`, { agent }, (response) => {
      const connection = socketClosed(response.socket);
      response.resume();
      response.once('end', () => resolve(connection));
    })
      .once('error', reject)
      .end();
  });
}

/** A request in flight: its body announces 100 bytes and never sends them all. */
async function stalledRequest(service: RunningService): Promise<{ closed: Promise<number> }> {
  const request = httpRequest(`${service.baseUrl}/api/session/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': '100' },
  });
  request.on('error', () => undefined); // cut by the server, as it should be
  request.write('{"username":');
  const socket = await new Promise<Socket>((resolve) => request.once('socket', resolve));
  await new Promise((resolve) => (socket.connecting ? socket.once('connect', resolve) : resolve(undefined)));
  await sleep(200); // the server has the request line and headers
  return socketClosed(socket);
}

describe('SIGTERM stops the service within 10 s', () => {
  it('idle, under `make run`: every step done, the process gone at once', async () => {
    const service = await start(['make', 'run']);
    const api = apiOf(service);
    const setup = await api.POST('/api/session/setup', { body: { username: 'admin', password: PASSWORD } });
    expect(setup.response.status).toBe(201);
    const settings = await api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
    expect(settings.response.status).toBe(200);

    const stopped = await stop(service);
    // make dies of the group's SIGTERM once its child has exited: the service's own outcome is its log.
    expect(stopped.ms).toBeLessThan(STOP_DEADLINE_MS);
    const log = shutdownLog(service);
    expect(log).toEqual(
      [
        'shutting down',
        'http: stopped serving HTTP and WebSockets',
        'bots: bots saved and disconnected',
        'bus: bus closed',
        'database: database closed',
        'stopped',
      ].sort(),
    );
    // make relays the SIGTERM it got to its child too: that copy is not a second signal.
    expect(service.output()).not.toContain('second signal');
  }, 120_000);

  it('a bot playing and browsers open: sockets get 1001, connections end, the bot saves and leaves', async () => {
    const service = await start();
    const api = apiOf(service);
    await until(async () => !!(await botStatus(api))?.connected, 20_000, 'the bot to start on its own');
    const bot = { params: { path: { botId } } };
    expect(
      (await api.POST('/api/player/{botId}/play-song', { ...bot, body: { song: songs[0]! } })).response
        .status,
    ).toBe(200);
    expect(
      (await api.POST('/api/player/{botId}/add-song', { ...bot, body: { song: songs[1]! } })).response.status,
    ).toBe(200);
    await until(async () => ((await botStatus(api))?.elapsed ?? 0) >= 2, 20_000, 'two seconds played');
    const sockets = await Promise.all([openSocket(service), openSocket(service)]);
    const idle = await idleKeepAlive(service);
    const stalled = await stalledRequest(service);
    const playedBefore = (await botStatus(api))!.elapsed;

    const stopped = await stop(service);
    expectCleanStop(stopped, service);
    for (const socket of await Promise.all(sockets.map((s) => s.closed))) {
      expect(socket.code).toBe(WS_CLOSE_GOING_AWAY);
      expect(socket.at - stopped.sentAt).toBeLessThan(HTTP_GRACE_MS);
    }
    expect((await idle.closed) - stopped.sentAt).toBeLessThan(HTTP_GRACE_MS);
    expect((await stalled.closed) - stopped.sentAt).toBeGreaterThanOrEqual(HTTP_GRACE_MS);
    expect(ended.get(botSessions.at(-1)!)).toBe('Bye');
    const saved = await snapshot();
    expect(saved.songIds).toEqual(songs.map((song) => song.id));
    expect(saved.currentIndex).toBe(0);
    expect(saved.positionSeconds).toBeGreaterThanOrEqual(Math.floor(playedBefore));
  }, 90_000);

  it('the voice server gone silent: the goodbye is given up, the queue is saved', async () => {
    const service = await start();
    const api = apiOf(service);
    await expectQueueAndPositionBack(api, await snapshot());
    servers.at(-1)!.pause();
    const playedBefore = (await botStatus(api))!.elapsed;

    const stopped = await stop(service);
    expectCleanStop(stopped, service);
    expect(service.output()).toContain('did not answer the goodbye');
    expect((await snapshot()).positionSeconds).toBeGreaterThanOrEqual(Math.floor(playedBefore));
  }, 90_000);

  it('the database locked by another process: the last saved position stays', async () => {
    await useVoiceServer();
    const service = await start();
    const api = apiOf(service);
    const restoredFrom = await snapshot();
    await expectQueueAndPositionBack(api, restoredFrom);
    // A checkpoint written after the restore (every 5 s while playing).
    await until(
      async () => (await snapshot()).positionSeconds > restoredFrom.positionSeconds,
      15_000,
      'a checkpoint',
    );
    const checkpoint = await snapshot();
    const lock = await holdWriteLock(`file:${join(dataDir, 'bot.db')}`, 8000);

    const stopped = await stop(service);
    expectCleanStop(stopped, service);
    expect(service.output()).toContain('could not write the queue snapshot');
    await lock.released;
    const saved = await snapshot();
    expect(saved.songIds).toEqual(songs.map((song) => song.id));
    expect(saved.positionSeconds).toBeGreaterThanOrEqual(checkpoint.positionSeconds);
  }, 90_000);

  it('scaled out with NATS down: the api and the daemon stop, the daemon saves its bot', async () => {
    nats = await startNatsServer({ jetstream: true });
    const natsEnv = { NATS_URL: nats.url };
    const api = await start(['node', '--import', 'tsx', 'api/main.ts'], natsEnv);
    const daemon = runDaemon({ ...env, ...natsEnv });
    running.push(daemon);
    const client = apiOf(api);
    await expectQueueAndPositionBack(client, await snapshot());
    const playedBefore = (await botStatus(client))!.elapsed;
    const session = botSessions.at(-1)!;
    await nats.crash();

    const [apiStopped, daemonStopped] = await Promise.all([stop(api), stop(daemon)]);
    expectCleanStop(apiStopped, api);
    expectCleanStop(daemonStopped, daemon);
    expect(ended.get(session)).toBe('Bye');
    expect((await snapshot()).positionSeconds).toBeGreaterThanOrEqual(Math.floor(playedBefore));
  }, 90_000);

  it('a second SIGTERM during a slow shutdown exits at once', async () => {
    const service = await start();
    await expectQueueAndPositionBack(apiOf(service), await snapshot());
    // A request whose body never ends and a silent voice server: the shutdown would take HTTP_GRACE_MS
    // and then the bot's wait for its goodbye, more than 3 s.
    await stalledRequest(service);
    servers.at(-1)!.pause();
    service.signal('SIGTERM');
    await sleep(500);

    const stopped = await stop(service);
    expect({ code: stopped.code, signal: stopped.signal }).toEqual({ code: 128 + 15, signal: null });
    expect(stopped.ms).toBeLessThan(2000);
    expect(shutdownLog(service)).toEqual(
      ['shutting down', 'second signal: exiting now, the shutdown left unfinished'].sort(),
    );
  }, 90_000);
});
