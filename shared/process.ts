/**
 * What every process entry (main.ts, api/main.ts, daemon/main.ts) starts with: the migrated database
 * and the bus. Their shutdown is shared/shutdown.ts.
 */
import type { Bus } from './bus/bus';
import { createBus } from './bus/create-bus';
import type { AppConfig } from './config';
import { type Db, migrateDb, openDb } from './db/client';

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
