/**
 * Wiring for processes that serve HTTP: config → database (migrated) → bus → app → listen.
 * With `withDaemon` the same process also runs the daemon (the single-machine default).
 */
import { chatApiFactory } from '../daemon/chat/chat-api';
import { Daemon } from '../daemon/daemon';
import { createBus } from '../shared/bus/create-bus';
import { loadConfig } from '../shared/config';
import { migrateDb, openDb } from '../shared/db/client';
import { logger } from '../shared/logger';
import { createApp } from './app';
import { listen } from './server';
import { readVersion } from './version';

const log = logger('main');

export async function startHttpProcess({ withDaemon }: { withDaemon: boolean }): Promise<void> {
  const config = loadConfig();
  if (!withDaemon && !config.natsUrl) {
    throw new Error(
      'an api process on its own needs NATS_URL to reach the daemons; `make run` runs both in one process',
    );
  }
  const db = openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  await migrateDb(db);
  const bus = await createBus(config.natsUrl, config.busTimeoutMs, withDaemon ? config.daemonId : 'api');
  const built = createApp({ db, bus, config, version: readVersion() });
  // In one process, chat commands reach the api through its own fetch: no socket, no port.
  const chat = {
    api: chatApiFactory({
      baseUrl: 'http://in-process',
      serviceToken: config.serviceToken,
      fetch: async (request) => built.app.fetch(request),
    }),
    prefix: config.chatPrefix,
  };
  const daemon = withDaemon
    ? new Daemon({ db, bus, daemonId: config.daemonId, dataDir: config.dataDir, chat })
    : undefined;
  await daemon?.start();
  const server = await listen(built, config.host, config.port);
  log.info(
    {
      url: `http://${config.host}:${server.port}`,
      dataDir: config.dataDir,
      bus: config.natsUrl ?? 'in-process',
    },
    'serving',
  );

  const shutdown = async () => {
    log.info('shutting down');
    await server.close();
    await daemon?.stop();
    await bus.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
