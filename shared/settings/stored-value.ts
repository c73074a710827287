import type { Db } from '../db/client';
import { settings } from '../db/schema';
/** Settings rows hold JSON text; a row that is not valid JSON reads as absent (its default applies). */
export function parseStoredValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const encodeStoredValue = (value: unknown): string => JSON.stringify(value ?? null);

/** Writes one settings row (insert or replace). */
export async function upsertSetting(db: Db, key: string, value: unknown): Promise<void> {
  const row = { value: encodeStoredValue(value), updatedAt: new Date() };
  await db
    .insert(settings)
    .values({ key, ...row })
    .onConflictDoUpdate({ target: settings.key, set: row });
}
