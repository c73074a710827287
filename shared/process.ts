/**
 * What every process entry (main.ts, api/main.ts, daemon/main.ts) starts with and ends with: the
 * migrated database and the bus, and one orderly shutdown on SIGINT/SIGTERM.
 */
import type { Bus } from './bus/bus';
import { createBus } from './bus/create-bus';
import type { AppConfig } from './config';
import { type Db, migrateDb, openDb } from './db/client';
import { logger } from './logger';

export interface Backends {
  db: Db;
  bus: Bus;
}

/** Opens and migrates the database, then connects the bus (in-process unless NATS_URL is set). */
export async function openBackends(config: AppConfig, busName: string): Promise<Backends> {
  const db = openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  await migrateDb(db);
  const bus = await createBus(config.natsUrl, config.busTimeoutMs, busName);
  return { db, bus };
}

/**
 * Runs `stop` once on the first SIGINT or SIGTERM, then exits. Later signals are ignored rather than
 * left to their default (an immediate exit): a signal to the whole process group (systemd, Ctrl-C)
 * reaches this process both directly and relayed by `tsx`, and the second copy must not cut the
 * shutdown short, least of all a daemon's hand-over of its bots.
 */
export function onShutdown(stop: () => Promise<void>): void {
  const log = logger('main');
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return log.info({ signal }, 'already shutting down');
    stopping = true;
    log.info('shutting down');
    await stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
