/**
 * Audio quality per platform (SPEC "Audio quality is global per provider and is restored at startup"):
 * one settings row, `quality`, holding each platform's quality. A stored
 * value the platform cannot serve (damaged, or a platform that lost a quality) reads as its default.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { QUALITIES, type Quality } from '../domain/constants';
import { PLATFORMS, type Platform, qualitiesOf } from '../domain/platforms';
import { parseStoredValue, upsertSetting } from './stored-value';

export type QualityMap = Record<Platform, Quality>;
/** The settings row, also the key a `settings.changed` event names when it changes. */
export const QUALITY_SETTING = 'quality';

export function readQualityMap(stored: unknown): QualityMap {
  const record = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const map = {} as QualityMap;
  for (const platform of PLATFORMS) {
    const served = qualitiesOf(platform);
    const value = record[platform];
    map[platform] =
      typeof value === 'string' &&
      (QUALITIES as readonly string[]).includes(value) &&
      served.includes(value as Quality)
        ? (value as Quality)
        : served[0];
  }
  return map;
}

export async function readQuality(db: Db): Promise<QualityMap> {
  const row = await db.query.settings.findFirst({ where: eq(settings.key, QUALITY_SETTING) });
  return readQualityMap(row ? parseStoredValue(row.value) : undefined);
}

export const writeQuality = (db: Db, map: QualityMap): Promise<void> =>
  upsertSetting(db, QUALITY_SETTING, map);
