/**
 * Starts the HTTP side (REST, docs, WebSocket gateway) on already opened backends; `metrics`: what
 * /metrics serves besides the api's own (the daemon's, when it runs in this process).
 */
import type { AppConfig } from '../shared/config';
import { logger } from '../shared/logger';
import type { MetricsSource } from '../shared/metrics/exposition';
import type { Backends } from '../shared/process';
import { createApp } from './app';
import { listen } from './server';
import { readVersion } from './version';

export type ApiProcess = Awaited<ReturnType<typeof startApi>>;

export async function startApi(config: AppConfig, { db, bus }: Backends, metrics?: readonly MetricsSource[]) {
  const built = createApp({ db, bus, config, version: readVersion(), ...(metrics ? { metrics } : {}) });
  const server = await listen(built, config.host, config.port);
  logger('api').info(
    {
      url: `http://${config.host}:${server.port}`,
      dataDir: config.dataDir,
      bus: config.natsUrl ?? 'in-process',
    },
    'serving',
  );
  return { app: built.app, port: server.port, close: () => server.close() };
}
