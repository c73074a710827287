/**
 * The uploads quota eviction must keep: those some bot's queue holds (shared/bus/queued-uploads.ts).
 * While a bot's queue cannot be read any upload may be queued, so every upload is kept then.
 */
import { queuedUploadIds } from '../../shared/bus/queued-uploads';
import { uploads } from '../../shared/db/schema';
import type { AppDeps } from '../env';

export async function uploadsKeptByEviction({ db, bus }: Pick<AppDeps, 'db' | 'bus'>): Promise<Set<string>> {
  const queued = await queuedUploadIds({ db, bus });
  if (queued) return queued;
  const all = await db.select({ id: uploads.id }).from(uploads);
  return new Set(all.map((row) => row.id));
}
