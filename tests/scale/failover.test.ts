/**
 * The scaled-out service on one machine, as wrangler-free-deploy runs it: a real `nats-server -js`, two
 * api processes and two daemons (their own `node` entries) on one libSQL file, and the TS3 test server
 * in this process. Bots created through either api are placed on both daemons; requests through either
 * api drive them; every WebSocket sees every bot. Then one daemon is killed (SIGKILL): its bots answer
 * 503 until the other daemon takes them over, within 10 s, reconnects them and plays on from the
 * restored queue and position. A daemon stopped gracefully hands every bot over (one at a time, well
 * before a lease could expire). Throughout, no
 * identity's voice ever arrives from two sessions at once.
 */

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_LEASE_TIMING } from '../../daemon/ownership/lease-timing';
import type { ApiClient } from '../../openapi/client';
import { type Db, openDb } from '../../shared/db/client';
import type { Song } from '../../shared/domain/schemas';
import { type WsMessage, WsMessageSchema } from '../../shared/ws-messages';
import { PASSWORD } from '../../testkit/accounts';
import { CookieJar } from '../../testkit/cookie-jar';
import { type LeaseOwners, watchLeaseOwners } from '../../testkit/lease-owners';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import {
  preparedDataDir,
  type RunningService,
  runDaemon,
  runService,
  serviceClient,
} from '../../testkit/run-service';
import { addToneUpload } from '../../testkit/tone-uploads';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

const BOTS = 4;
const BUS_TIMEOUT_MS = 4000;
const SONG_SECONDS = 45;
/** The deployment's promise: a dead daemon's bots have a new owner within this. */
const TAKEOVER_DEADLINE_MS = 10_000;
/** The queue snapshot's position is refreshed every 5 s; past 8 s of playing one was written after 3 s. */
const PLAYED_BEFORE_KILL_S = 8;
const RESTORED_FROM_AT_LEAST_S = 3;

interface Session {
  clientId: number;
  uid: string;
  nickname: string;
}

let server: Ts3TestServer;
let nats: NatsServerHandle;
let apis: RunningService[] = [];
let env: Record<string, string>;
let daemons: Record<'d1' | 'd2', RunningService>;
let leases: LeaseOwners;
let dataDir: string;
let db: Db;
const sessions: Session[] = [];
const jar = new CookieJar();
let clients: ApiClient[];
const botIds: string[] = [];
const nicknames = new Map<string, string>();

const until = (check: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`waited ${timeoutMs} ms for ${what()}`);
    },
    { timeout: timeoutMs, interval: 100 },
  );
const sessionsOf = (botId: string) => {
  const first = sessions.find((s) => s.nickname === nicknames.get(botId));
  return first ? sessions.filter((s) => s.uid === first.uid) : [];
};
const voiceOf = (session: Session) => server.voiceArrivals(session.clientId);
const playingNow = (session: Session | undefined, sinceMs: number) =>
  !!session && voiceOf(session).some((at) => at > sinceMs);

beforeAll(async () => {
  server = await Ts3TestServer.start();
  server.on('clientConnected', ({ clientId, uid, nickname }) => sessions.push({ clientId, uid, nickname }));
  dataDir = await preparedDataDir('tsmb-failover-');
  db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  nats = await startNatsServer({ jetstream: true });
  env = {
    DATA_DIR: dataDir,
    NATS_URL: nats.url,
    TS3_LICENSE_ROOT: server.rootPublicKey,
    BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS),
  };
  daemons = { d1: runDaemon({ ...env, DAEMON_ID: 'd1' }), d2: runDaemon({ ...env, DAEMON_ID: 'd2' }) };
  apis = await Promise.all([0, 1].map(() => runService(env, ['node', '--import', 'tsx', 'api/main.ts'])));
  clients = apis.map((api) => serviceClient(api, { jar }));
  leases = await watchLeaseOwners(nats.url);
  await until(
    () => leases.liveDaemons().join() === 'd1,d2',
    60_000,
    () => 'both daemons beat in the bucket',
  );
}, 120_000);

afterAll(async () => {
  await leases?.close();
  await Promise.all([...apis, ...Object.values(daemons ?? {})].map((p) => p.stop()));
  await nats?.stop();
  await server?.close();
  db?.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A WebSocket on one api process, keeping every frame with the time it arrived. */
async function openSocket(api: RunningService) {
  const frames: { at: number; message: WsMessage }[] = [];
  const ws = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie: jar.header()! } });
  ws.on('message', (data) =>
    frames.push({ at: performance.now(), message: WsMessageSchema.parse(JSON.parse(String(data))) }),
  );
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const statuses = (since: number) =>
    frames.flatMap(({ at, message }) => (at > since && message.type === 'status' ? [message.bot] : []));
  return { statuses, close: () => ws.close() };
}
let sockets: Awaited<ReturnType<typeof openSocket>>[];

async function song(name: string, frequencyHz: number): Promise<Song> {
  return addToneUpload(db, dataDir, name, [{ frequencyHz, seconds: SONG_SECONDS }]);
}

describe('scaled out over NATS JetStream: two api processes, two daemons, one database', () => {
  it('places bots on both daemons and drives them through both api processes; every socket sees all', async () => {
    const setup = await clients[0]!.POST('/api/session/setup', {
      body: { username: 'admin', password: PASSWORD },
    });
    expect(setup.response.status).toBe(201);
    const saved = await clients[1]!.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
    expect(saved.response.status).toBe(200);
    sockets = await Promise.all(apis.map(openSocket));

    for (let i = 0; i < BOTS; i++) {
      const nickname = `Failover${i}`;
      const created = await clients[i % 2]!.POST('/api/bot', {
        body: { name: `Failover ${i}`, nickname, serverAddress: '127.0.0.1', serverPort: server.port },
      });
      expect(created.response.status).toBe(201);
      botIds.push(created.data!.id);
      nicknames.set(created.data!.id, nickname);
    }
    // Placed by load: two on each daemon.
    await until(
      () => leases.owners().get('d1')?.length === 2 && leases.owners().get('d2')?.length === 2,
      10_000,
      () => `two bots on each daemon (${JSON.stringify([...leases.owners()])})`,
    );

    const then = await song('Then', 330);
    for (const [i, botId] of botIds.entries()) {
      const [one, other] = [clients[i % 2]!, clients[(i + 1) % 2]!];
      const bot = { params: { path: { botId } } };
      const started = await other.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
      expect(started.data).toMatchObject({ connected: true });
      const played = await one.POST('/api/player/{botId}/play-song', {
        ...bot,
        body: { song: await song(`Tone ${i}`, 440 + 110 * i) },
      });
      expect(played.response.status).toBe(200);
      const added = await other.POST('/api/player/{botId}/add-song', { ...bot, body: { song: then } });
      expect(added.response.status).toBe(200);
    }
    await until(
      () => botIds.every((id) => playingNow(sessionsOf(id)[0], 0)),
      15_000,
      () => 'the test server to hear every bot',
    );
    for (const id of botIds) expect(sessionsOf(id)).toHaveLength(1);
    for (const socket of sockets) {
      const playing = new Set(socket.statuses(0).flatMap((s) => (s.playing ? [s.id] : [])));
      expect([...playing].sort()).toEqual([...botIds].sort());
    }
  }, 60_000);

  it('moves the bots of a killed daemon to the other within 10 s; they play on from where they were', async () => {
    const elapsed = async (botId: string, i: number) =>
      (await clients[i % 2]!.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.elapsed ?? 0;
    await until(
      async () => (await Promise.all(botIds.map(elapsed))).every((s) => s >= PLAYED_BEFORE_KILL_S),
      20_000,
      () => `every bot to play ${PLAYED_BEFORE_KILL_S} s`,
    );
    const moved = leases.owners().get('d1') ?? [];
    expect(moved).toHaveLength(2);
    const queues = new Map<string, string[]>();
    for (const botId of moved) {
      const { data } = await clients[0]!.GET('/api/player/{botId}/queue', { params: { path: { botId } } });
      queues.set(
        botId,
        data!.queue.map((s) => s.id),
      );
    }

    const killedAt = performance.now();
    await daemons.d1.kill();
    // Nobody owns the bot now: "no responders" once NATS has noticed the dead connection; until then
    // the request waits out the bus timeout. Either way a 503 that says so, within the bus timeout.
    const asked = performance.now();
    const orphan = await clients[1]!.GET('/api/bot/{id}', { params: { path: { id: moved[0]! } } });
    expect(orphan.response.status).toBe(503);
    expect(['no daemon is running this bot right now', 'the bot daemon did not answer in time']).toContain(
      orphan.error?.error,
    );
    expect(performance.now() - asked).toBeLessThan(BUS_TIMEOUT_MS + 3000);

    await until(
      () => moved.every((id) => leases.ownerOf(id) === 'd2'),
      TAKEOVER_DEADLINE_MS + 5000,
      () => `d2 to take the bots over\n${daemons.d2.output().slice(-4000)}`,
    );
    const takeoverMs = performance.now() - killedAt;
    expect(takeoverMs).toBeLessThan(TAKEOVER_DEADLINE_MS);

    await until(
      () => moved.every((id) => playingNow(sessionsOf(id)[1], killedAt)),
      20_000,
      () => 'the moved bots to play again through new sessions of their identities',
    );
    for (const [i, botId] of moved.entries()) {
      const { data } = await clients[i % 2]!.GET('/api/player/{botId}/queue', {
        params: { path: { botId } },
      });
      expect(data!.queue.map((s) => s.id)).toEqual(queues.get(botId));
      expect(data!.status.currentSong?.id).toBe(queues.get(botId)![0]);
      expect(data!.status.elapsed).toBeGreaterThanOrEqual(RESTORED_FROM_AT_LEAST_S);
    }
    for (const socket of sockets) {
      const seen = new Set(socket.statuses(killedAt).flatMap((s) => (s.playing ? [s.id] : [])));
      for (const botId of moved) expect(seen.has(botId)).toBe(true);
    }
    console.log(`failover: the killed daemon's bots had a new owner after ${Math.round(takeoverMs)} ms`);
  }, 90_000);

  it('hands every bot to the other daemon when one stops gracefully, well before a lease could expire; they play on', async () => {
    daemons.d1 = runDaemon({ ...env, DAEMON_ID: 'd1' });
    await until(
      () => leases.liveDaemons().join() === 'd1,d2',
      60_000,
      () => 'the restarted d1 to beat',
    );
    const stoppedAt = performance.now();
    await daemons.d2.stop();
    console.log(`hand-over: d2 stopped ${Math.round(performance.now() - stoppedAt)} ms after SIGTERM`);
    await until(
      () => botIds.every((id) => leases.ownerOf(id) === 'd1'),
      TAKEOVER_DEADLINE_MS,
      () => `d1 to take every bot over\n${daemons.d1.output().slice(-4000)}`,
    );
    // Handed over, not expired: well before a lease could have expired.
    expect(performance.now() - stoppedAt).toBeLessThan(DEFAULT_LEASE_TIMING.ttlMs);
    await until(
      () => botIds.every((id) => playingNow(sessionsOf(id).at(-1), stoppedAt)),
      20_000,
      () => 'every bot to play again on d1',
    );
  }, 90_000);

  it('never let two sessions of one identity send voice at the same time', () => {
    for (const botId of botIds) {
      const spans = sessionsOf(botId)
        .map((s) => voiceOf(s))
        .filter((arrivals) => arrivals.length > 0)
        .map((arrivals) => ({ first: arrivals[0]!, last: arrivals.at(-1)! }))
        .sort((a, b) => a.first - b.first);
      for (let i = 1; i < spans.length; i++) expect(spans[i]!.first).toBeGreaterThan(spans[i - 1]!.last);
    }
  });

  it('releases the lease of a deleted bot', async () => {
    const botId = botIds[0]!;
    const removed = await clients[1]!.DELETE('/api/bot/{id}', { params: { path: { id: botId } } });
    expect(removed.response.status).toBe(204);
    await until(
      () => leases.ownerOf(botId) === undefined,
      5000,
      () => 'the lease to go',
    );
  });
});
