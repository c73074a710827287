/**
 * The scaled-out layout on one machine: a real nats-server, a daemon process and an api process
 * (their own `node` entries) sharing one libSQL file. A bot status travels api → NATS → daemon.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../openapi/client';
import { migrateDb, openDb } from '../../shared/db/client';
import { bots } from '../../shared/db/schema';
import { CookieJar } from '../helpers/cookie-jar';
import { type NatsServerHandle, startNatsServer } from '../helpers/nats-server';
import { type RunningService, runService } from '../helpers/run-service';

describe('api and daemon as separate processes over NATS', () => {
  let nats: NatsServerHandle;
  let daemon: RunningService | undefined;
  let api: RunningService;
  let dataDir: string;
  const botId = randomUUID();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tsmb-scaled-'));
    const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
    await migrateDb(db);
    const now = new Date();
    await db.insert(bots).values({
      id: botId,
      name: 'Remote',
      serverAddress: '127.0.0.1',
      nickname: 'Remote',
      createdAt: now,
      updatedAt: now,
    });
    db.$client.close();
    nats = await startNatsServer();
    const env = { DATA_DIR: dataDir, NATS_URL: nats.url };
    api = await runService(env, ['npx', 'tsx', 'api/main.ts']);
    // The daemon has no HTTP port; it is ready when the api gets an answer through it.
    daemon = await startDaemon(env);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
    await api?.stop();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startDaemon(env: Record<string, string>): Promise<RunningService> {
    const { spawn } = await import('node:child_process');
    const child = spawn('npx', ['tsx', 'daemon/main.ts'], {
      env: { ...process.env, ...env, VITEST: '' },
      stdio: 'ignore',
      detached: true,
    });
    return {
      baseUrl: '',
      output: () => '',
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          process.kill(-child.pid!, 'SIGTERM');
        }),
    };
  }

  it('serves a bot status answered by the daemon process', async () => {
    const jar = new CookieJar();
    const client = createApiClient({
      baseUrl: api.baseUrl,
      fetch: async (request) => {
        const cookie = jar.header();
        if (cookie) request.headers.set('cookie', cookie);
        const response = await fetch(request);
        jar.store(response);
        return response;
      },
    });
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

    await daemon?.stop();
    daemon = undefined;
    const gone = await client.GET('/api/bot/{id}', { params: { path: { id: botId } } });
    expect(gone.response.status).toBe(503);
  }, 60_000);
});
