/** Wiring for a daemon-only process: config → database → bus → daemon, and a clean shutdown. */
import { createBus } from '../shared/bus/create-bus';
import { loadConfig } from '../shared/config';
import { migrateDb, openDb } from '../shared/db/client';
import { logger } from '../shared/logger';
import { Daemon } from './daemon';

export async function startDaemonProcess(): Promise<void> {
  const config = loadConfig();
  if (!config.natsUrl)
    throw new Error('a daemon on its own needs NATS_URL; `make run` runs everything in one process');
  const db = openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  await migrateDb(db);
  const bus = await createBus(config.natsUrl, config.busTimeoutMs, config.daemonId);
  const daemon = new Daemon({ db, bus, daemonId: config.daemonId });
  await daemon.start();
  const shutdown = async () => {
    logger('daemon').info('shutting down');
    await daemon.stop();
    await bus.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
