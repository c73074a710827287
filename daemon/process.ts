/** Wiring for a daemon-only process: config → database → bus → daemon, and a clean shutdown. */
import { createBus } from '../shared/bus/create-bus';
import { loadConfig } from '../shared/config';
import { migrateDb, openDb } from '../shared/db/client';
import { logger } from '../shared/logger';
import { chatApiFactory } from './chat/chat-api';
import { Daemon } from './daemon';

export async function startDaemonProcess(): Promise<void> {
  const config = loadConfig();
  if (!config.natsUrl)
    throw new Error('a daemon on its own needs NATS_URL; `make run` runs everything in one process');
  const db = openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  await migrateDb(db);
  const bus = await createBus(config.natsUrl, config.busTimeoutMs, config.daemonId);
  const log = logger('daemon');
  if (!config.apiUrl) log.warn('API_URL is not set: bots will not answer chat commands');
  const chat = config.apiUrl
    ? {
        api: chatApiFactory({ baseUrl: config.apiUrl, serviceToken: config.serviceToken }),
        prefix: config.chatPrefix,
      }
    : undefined;
  const daemon = new Daemon({
    db,
    bus,
    daemonId: config.daemonId,
    dataDir: config.dataDir,
    ...(chat ? { chat } : {}),
  });
  await daemon.start();
  const shutdown = async () => {
    log.info('shutting down');
    await daemon.stop();
    await bus.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
