/**
 * Builds the real app for a test: a fresh libSQL file, the in-process bus (or a given one), the real
 * daemon, and typed clients that call `app.fetch` directly (no port). Each client can carry its own
 * cookie jar (a browser) or an API key. Every answer of the app is checked against the OpenAPI
 * document (checked-answers.ts).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../api/app';
import { listen, type RunningServer } from '../api/server';
import type { GatewayOptions } from '../api/ws/gateway-options';
import type { Ts3Options } from '../daemon/bots/connection/ts3-options';
import { chatApiFactory } from '../daemon/chat/chat-api';
import { Daemon } from '../daemon/daemon';
import { type ApiClient, createApiClient } from '../openapi/client';
import type { Bus } from '../shared/bus/bus';
import { InProcessBus } from '../shared/bus/in-process-bus';
import { type AppConfig, loadConfig } from '../shared/config';
import { type Db, migrateDb, openDb } from '../shared/db/client';
import { sourceContextOf } from '../shared/sources/platform-modules';
import { checkingAnswers } from './checked-answers';
import { CookieJar, sendingCookies } from './cookie-jar';

export const TEST_ORIGIN = 'http://bot.test';

export interface TestApp {
  db: Db;
  bus: Bus;
  config: AppConfig;
  daemon: Daemon | undefined;
  /** DATA_DIR of this app (uploads live below it). */
  dataDir: string;
  app: ReturnType<typeof createApp>['app'];
  /** The app's fetch as a browser at TEST_ORIGIN would call it, with an optional cookie jar. */
  fetch: (request: Request, jar?: CookieJar) => Promise<Response>;
  /** A client with its own cookie jar (a browser session). */
  browser(): { api: ApiClient; jar: CookieJar };
  /** A client authenticated by API key only. */
  withKey(rawKey: string, header?: 'bearer' | 'x-api-key'): ApiClient;
  /** A client with no credentials. */
  anonymous(): ApiClient;
  /** Serves the app with its WebSocket gateway on a loopback port; resolves with the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  bus?: Bus;
  withDaemon?: boolean;
  env?: Record<string, string>;
  /** Voice options for the daemon's bots (a test server's license root). */
  ts3?: Ts3Options;
  /** The /ws gateway's sweep for sockets whose session ended (its period and clock). */
  wsGateway?: GatewayOptions;
  /**
   * Check every answer against the OpenAPI document (the default). The api bench turns it off: the
   * check clones and validates each answer, which costs more CPU than the request it checks.
   */
  checkAnswers?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tsmb-test-'));
  // Behind a "trusted proxy" each test browser gets its own client address, as real browsers have.
  const config = loadConfig({
    PATH: process.env.PATH,
    FFMPEG_PATH: process.env.FFMPEG_PATH,
    DATA_DIR: dataDir,
    TRUST_PROXY: '1',
    ...options.env,
  });
  const db = openDb({ url: config.databaseUrl });
  await migrateDb(db);
  const bus = options.bus ?? new InProcessBus();
  const built = createApp({
    db,
    bus,
    config,
    version: 'test',
    wsGateway: options.wsGateway,
    // As in `make run`: the one /metrics has the daemon's too (here on this thread).
    metrics: [async () => (daemon ? daemon.metrics.registry.getMetricsAsJSON() : [])],
  });
  // On the app itself, so every way a test reaches it is checked: the typed clients, `fetch`,
  // `app.fetch` and `app.request`, the chat service, and the port `listen` serves (browsers, sockets).
  if (options.checkAnswers !== false)
    built.app.fetch = checkingAnswers(built.app.fetch, { basePath: config.basePath });
  const chat = {
    api: chatApiFactory({
      baseUrl: TEST_ORIGIN,
      serviceToken: config.serviceToken,
      fetch: async (r) => built.app.fetch(r),
    }),
    prefix: config.chatPrefix,
  };
  const daemon =
    options.withDaemon === false
      ? undefined
      : new Daemon({
          db,
          bus,
          daemonId: 'test-daemon',
          sourceContext: sourceContextOf(db, config),
          chat,
          ts3: options.ts3 ?? {},
          ffmpeg: config.ffmpeg,
        });
  await daemon?.start();
  const { app } = built;
  let server: RunningServer | undefined;

  const fetch = (request: Request, jar?: CookieJar): Promise<Response> =>
    sendingCookies(jar, async (r) => app.fetch(r))(request);
  let browsers = 0;
  const client = (headers: Record<string, string> = {}, jar?: CookieJar) =>
    createApiClient({ baseUrl: TEST_ORIGIN, headers, fetch: (request) => fetch(request, jar) });

  return {
    db,
    bus,
    config,
    daemon,
    dataDir,
    app,
    fetch,
    browser() {
      const jar = new CookieJar();
      browsers++;
      const address = `198.18.${(browsers >> 8) & 255}.${browsers & 255}`;
      return { api: client({ 'x-forwarded-for': address }, jar), jar };
    },
    withKey: (rawKey, header = 'bearer') =>
      client(header === 'bearer' ? { authorization: `Bearer ${rawKey}` } : { 'x-api-key': rawKey }),
    anonymous: () => client(),
    async listen() {
      server ??= await listen(built, '127.0.0.1', 0);
      return `http://127.0.0.1:${server.port}`;
    },
    async close() {
      await server?.close();
      await daemon?.stop();
      await bus.close();
      db.$client.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
