/**
 * The partial-merge rules of POST /api/bot/settings, the public (secret-free) form, and writing only
 * the keys that changed.
 */
import type { Settings, SettingsUpdate } from '../../openapi/routes/settings';
import type { Db } from '../../shared/db/client';
import {
  PLATFORM_SETTINGS,
  SETTINGS_KEYS,
  type SettingsKey,
  type StoredSettings,
} from '../../shared/settings/settings';
import { upsertSetting } from '../../shared/settings/stored-value';
import { isPlatformEnabled } from '../../shared/sources/platform-choice';
import { ApiError } from '../errors';

/** The platforms' settings objects, merged one level deep like `voiceDucking`. */
const OBJECT_SLICES = new Set<string>(
  PLATFORM_SETTINGS.filter((slice) => 'secrets' in slice).map((s) => s.key),
);

/** The settings without the platforms' secrets: each secret becomes its `has…` flag (whether one is set). */
export function publicSettings(s: StoredSettings): Settings {
  const shown: Record<string, unknown> = { ...s };
  for (const slice of PLATFORM_SETTINGS) {
    if (!('secrets' in slice)) continue;
    const block: Record<string, unknown> = { ...(s[slice.key] as object) };
    for (const [secret, flag] of Object.entries(slice.secrets)) {
      block[flag] = block[secret] !== '';
      delete block[secret];
    }
    shown[slice.key] = block;
  }
  return shown as Settings;
}

/**
 * Applies an update: absent keys stay, nested objects merge one level (guest permissions two), and
 * the default-platform rules hold: it must be enabled, null or "" clears it, and a new provider
 * list without the stored default clears the default.
 */
export function mergeSettings(current: StoredSettings, update: SettingsUpdate): StoredSettings {
  const next: StoredSettings = { ...current };
  for (const key of SETTINGS_KEYS) {
    if (!(key in update) || update[key] === undefined) continue;
    if (key === 'guestMode' && update.guestMode) {
      const { permissions, ...rest } = update.guestMode;
      next.guestMode = {
        ...current.guestMode,
        ...rest,
        permissions: { ...current.guestMode.permissions, ...permissions },
      };
    } else if (key === 'voiceDucking' || OBJECT_SLICES.has(key)) {
      Object.assign(next, { [key]: { ...(current[key] as object), ...(update[key] as object) } });
    } else if (key !== 'defaultPlatform') {
      Object.assign(next, { [key]: update[key] });
    }
  }
  if (update.enabledProviders) next.enabledProviders = [...new Set(update.enabledProviders)];
  if ('defaultPlatform' in update) {
    const wanted = update.defaultPlatform;
    if (wanted === null || wanted === '' || wanted === undefined) next.defaultPlatform = null;
    else if (!isPlatformEnabled(next, wanted)) {
      throw new ApiError(400, `defaultPlatform: ${wanted} is not one of the enabled providers`);
    } else next.defaultPlatform = wanted;
  } else if (next.defaultPlatform && !isPlatformEnabled(next, next.defaultPlatform)) {
    next.defaultPlatform = null;
  }
  return next;
}

export async function writeSettings(
  db: Db,
  current: StoredSettings,
  next: StoredSettings,
): Promise<SettingsKey[]> {
  const changed = SETTINGS_KEYS.filter((key) => JSON.stringify(current[key]) !== JSON.stringify(next[key]));
  for (const key of changed) await upsertSetting(db, key, next[key]);
  return changed;
}
