/**
 * The scaled-out layout with a voice server, for the fault suites that stop its parts: a real
 * nats-server (JetStream, for the daemons' leases), a daemon process (`daemon/main.ts`, as deployed),
 * the api in the test's process on its own NATS connection, one libSQL file they share, and the TS3
 * test server the bot plays to. The bot and its tone songs are stored before anything starts.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { NatsBus } from '../../shared/bus/nats-bus';
import type { BotStatus, Song } from '../../shared/domain/schemas';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { botRow } from '../../testkit/bot-row';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { preparedDataDir, type RunningService, runDaemon } from '../../testkit/run-service';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

export const BOT_NAME = 'Faulty';

export interface ScaledVoice {
  nats: NatsServerHandle;
  server: Ts3TestServer;
  /** The api (in this process, over its own NATS connection), on the shared database. */
  t: TestApp;
  admin: Session;
  botId: string;
  /** 30 s tones at 440, 660 and 880 Hz, stored as uploads. */
  songs: Song[];
  daemon: RunningService;
  /** Starts another daemon process on the same NATS, database and voice server. */
  startDaemon(): RunningService;
  /** The bot's status through the api: the answer's HTTP status and, when 200, the bot. */
  botStatus(): Promise<{ status: number; bot: BotStatus | undefined }>;
  close(): Promise<void>;
}

export async function startScaledVoice(options: { savedQueues?: boolean } = {}): Promise<ScaledVoice> {
  const server = await Ts3TestServer.start();
  const nats = await startNatsServer({ jetstream: true });
  const botId = randomUUID();
  const dataDir = await preparedDataDir('tsmb-faults-', [
    { ...botRow(botId, BOT_NAME), serverPort: server.port },
  ]);
  const bus = await NatsBus.connect({ url: nats.url, name: 'faults-api' });
  const t = await startTestApp({ bus, withDaemon: false, env: { DATA_DIR: dataDir } });
  const admin = await setupAdmin(t);
  if (options.savedQueues) {
    const saved = await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
    expect(saved.response.status).toBe(200);
  }
  const songs: Song[] = [];
  for (const frequencyHz of [440, 660, 880])
    songs.push(await addToneUpload(t.db, dataDir, `tone ${frequencyHz}`, [{ frequencyHz, seconds: 30 }]));
  const env = { DATA_DIR: dataDir, NATS_URL: nats.url, TS3_LICENSE_ROOT: server.rootPublicKey };
  const daemons: RunningService[] = [];
  const startDaemon = () => {
    const daemon = runDaemon(env);
    daemons.push(daemon);
    return daemon;
  };
  const botStatus = async () => {
    const { response, data } = await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } });
    return { status: response.status, bot: data };
  };
  return {
    nats,
    server,
    t,
    admin,
    botId,
    songs,
    daemon: startDaemon(),
    startDaemon,
    botStatus,
    async close() {
      for (const daemon of daemons) await daemon.stop();
      await t.close();
      await nats.stop();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
