/**
 * What every process entry (main.ts, api/main.ts, daemon/main.ts) starts with: the migrated database
 * and the bus. Their shutdown is shared/shutdown.ts.
 */
import type { Bus } from './bus/bus';
import { createBus } from './bus/create-bus';
import type { AppConfig } from './config';
import { type Db, migrateDb, openDb } from './db/client';
import { openDaemonDb } from './db/daemon-db';

export interface Backends {
  db: Db;
  bus: Bus;
}

/**
 * Who runs on this thread and uses the database: the api (main.ts, where the daemon has a thread and a
 * handle of its own, and api/main.ts) or the daemon (daemon/main.ts), whose handle runs a local file's
 * statements on a thread of their own, off the frame clock's.
 */
export type DbUser = 'api' | 'daemon';

/** Opens and migrates the database, then connects the bus (in-process unless NATS_URL is set). */
export async function openBackends(config: AppConfig, busName: string, dbUser: DbUser): Promise<Backends> {
  const options = { url: config.databaseUrl, authToken: config.databaseAuthToken };
  const db = dbUser === 'daemon' ? openDaemonDb(options) : openDb(options);
  await migrateDb(db);
  const bus = await createBus(config.natsUrl, config.busTimeoutMs, busName);
  return { db, bus };
}
