/**
 * The scaled-out layout on one machine: a real nats-server, a daemon process and an api process
 * (their own `node` entries) sharing one libSQL file. A bot status travels api → NATS → daemon.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botRow } from '../../testkit/bot-row';
import { CookieJar } from '../../testkit/cookie-jar';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import {
  preparedDataDir,
  type RunningService,
  runDaemon,
  runService,
  serviceClient,
} from '../../testkit/run-service';
import { readLive, readOggPages } from '../helpers/ogg-reader';

describe('api and daemon as separate processes over NATS', () => {
  let nats: NatsServerHandle;
  let daemon: RunningService | undefined;
  let api: RunningService;
  let dataDir: string;
  const botId = randomUUID();

  beforeAll(async () => {
    dataDir = await preparedDataDir('tsmb-scaled-', [botRow(botId, 'Remote')]);
    nats = await startNatsServer({ jetstream: true });
    const env = { DATA_DIR: dataDir, NATS_URL: nats.url };
    api = await runService(env, ['npx', 'tsx', 'api/main.ts']);
    // The daemon has no HTTP port; it is ready when the api gets an answer through it.
    daemon = runDaemon(env);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
    await api?.stop();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves a bot status answered by the daemon process', async () => {
    const jar = new CookieJar();
    const client = serviceClient(api, { jar });
    const setup = await client.POST('/api/session/setup', {
      body: { username: 'admin', password: 'long enough pw' },
    });
    expect(setup.response.status).toBe(201);
    let status = 0;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const res = await client.GET('/api/bot/{id}', { params: { path: { id: botId } } });
      status = res.response.status;
      if (status === 200) {
        expect(res.data).toMatchObject({ id: botId, name: 'Remote' });
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);

    // Listening along crosses NATS too: the daemon publishes frames (silence: the bot is not connected)
    // once the api reports a listener, and the count reaches the status.
    let counted: number | undefined;
    const heard = await readLive(
      `${api.baseUrl}/api/player/${botId}/listen`,
      { cookie: jar.header()! },
      1500,
      async () => {
        await new Promise((r) => setTimeout(r, 1000));
        counted = (await client.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.listeners;
      },
    );
    expect(heard.status).toBe(200);
    expect(counted).toBe(1);
    const { pages } = readOggPages(heard.bytes);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(pages.slice(2).flatMap((p) => p.packets).length).toBeGreaterThan(25);

    await daemon?.stop();
    daemon = undefined;
    // The listener leaving was published as a state change: that status stands for ENTRY_TTL_MS.
    await expect
      .poll(
        async () => (await client.GET('/api/bot/{id}', { params: { path: { id: botId } } })).response.status,
        {
          timeout: 3000,
        },
      )
      .toBe(503);
  }, 60_000);
});
