/**
 * Starts the HTTP side (REST, docs, WebSocket gateway) on already opened backends; `metrics`: what
 * /metrics serves besides the api's own (the daemon's, when it runs in this process).
 */
import type { AppConfig } from '../shared/config';
import { logger } from '../shared/logger';
import type { MetricsSource } from '../shared/metrics/exposition';
import type { Backends } from '../shared/process';
import { ytDlpOf } from '../shared/sources/youtube/youtube-module';
import { reportYtDlp } from '../shared/sources/youtube/yt-dlp-status';
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
  // Whether yt-dlp has what today's YouTube needs, said once where the admin starting the server looks.
  void reportYtDlp(ytDlpOf(config), logger('sources.youtube'));
  return { app: built.app, port: server.port, close: () => server.close() };
}
