/**
 * `make run`'s layout for a test: the api on this thread, the real daemon on a thread of its own, the
 * bus between them over a port, next to a fresh TS3 test server, with the first admin signed in over
 * HTTP. Built as main.ts builds it, with the test's values.
 */
import { rmSync } from 'node:fs';
import { type ApiProcess, startApi } from '../../api/process';
import { type DaemonThread, startDaemonThread } from '../../daemon/thread/daemon-thread-host';
import { type AppConfig, loadConfig } from '../../shared/config';
import { type Backends, openBackends } from '../../shared/process';
import { setupAdminOverHttp } from '../../testkit/http-admin';
import { preparedDataDir } from '../../testkit/run-service';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

export interface RunLayout {
  server: Ts3TestServer;
  dataDir: string;
  config: AppConfig;
  backends: Backends;
  api: ApiProcess;
  daemon: DaemonThread;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The signed-in admin's browser headers (cookie and origin). */
  browser: Record<string, string>;
  /** A request as the admin's browser sends it; `body` goes as JSON. */
  send(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** `name` tells the data folder and the admin's password apart between suites. */
export async function startRunLayout(name: string): Promise<RunLayout> {
  const server = await Ts3TestServer.start();
  const dataDir = await preparedDataDir(`${name}-`);
  const config = loadConfig({
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    TS3_LICENSE_ROOT: server.rootPublicKey,
    LOG_LEVEL: 'silent',
  });
  const backends = await openBackends(config, config.daemonId, 'api');
  const api = await startApi(config, backends);
  const daemon = await startDaemonThread(config, backends.bus, (request) => api.app.fetch(request));
  const base = `http://127.0.0.1:${api.port}`;
  const browser = { cookie: await setupAdminOverHttp(base, `${name} password`), origin: base };
  return {
    server,
    dataDir,
    config,
    backends,
    api,
    daemon,
    base,
    browser,
    send: (method, path, body) =>
      fetch(`${base}${path}`, {
        method,
        headers: { ...browser, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    async close() {
      await daemon.stop(10_000);
      await api.close();
      await backends.bus.close();
      backends.db.$client.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
