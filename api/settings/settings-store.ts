/**
 * Global settings: defaults, reading stored rows into a sane object (damaged or legacy rows fall back
 * per key), the partial-merge rules of POST /api/bot/settings, and writing only the keys that changed.
 */
import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Settings, SettingsUpdate } from '../../openapi/routes/settings';
import type { Db } from '../../shared/db/client';
import { settings } from '../../shared/db/schema';
import { DEFAULT_ENABLED_PROVIDERS, PLATFORMS } from '../../shared/domain/constants';
import { ApiError } from '../errors';
import { type GuestModeSettings, normalizeGuestMode } from './guest-mode';

/** Settings as stored: the public shape, with the write-only secrets instead of their `has…` flags. */
export interface StoredSettings extends Omit<Settings, 'guestMode' | 'spotify' | 'jellyfin'> {
  guestMode: GuestModeSettings;
  spotify: Omit<Settings['spotify'], 'hasClientSecret'> & { clientSecret: string };
  jellyfin: Omit<Settings['jellyfin'], 'hasPassword'> & { password: string };
}
type Key = keyof StoredSettings;

const platform = z.enum(PLATFORMS);
/** SPEC rule 3: only a stored `true` is true. */
const strictBoolean = z.unknown().transform((v) => v === true);

const readers: { [K in Key]: z.ZodType<StoredSettings[K]> } = {
  idleTimeoutMinutes: z.number().int().min(0).max(1440).catch(0),
  autoPauseOnEmpty: z.boolean().catch(true),
  localAudioEnabled: z.boolean().catch(true),
  voiceDucking: z
    .object({ enabled: z.boolean().catch(false), volumePercent: z.number().int().min(0).max(100).catch(30) })
    .catch({ enabled: false, volumePercent: 30 }),
  savedQueuesEnabled: strictBoolean,
  playKeepsQueue: strictBoolean,
  adminGroups: z.array(z.number().int()).catch([]),
  // A legacy configuration without this key gets the SPEC default.
  enabledProviders: z.array(platform).catch([...DEFAULT_ENABLED_PROVIDERS]),
  defaultPlatform: platform.nullable().catch(null),
  guestMode: z.unknown().transform(normalizeGuestMode),
  spotify: z
    .object({
      enabled: z.boolean().catch(false),
      clientId: z.string().catch(''),
      clientSecret: z.string().catch(''),
      backend: z.enum(['librespot']).catch('librespot'),
      bitrate: z.union([z.literal(96), z.literal(160), z.literal(320)]).catch(320),
      deviceName: z.string().catch('TS3 Music Bot'),
    })
    .catch({
      enabled: false,
      clientId: '',
      clientSecret: '',
      backend: 'librespot',
      bitrate: 320,
      deviceName: 'TS3 Music Bot',
    }),
  jellyfin: z
    .object({
      serverUrl: z.string().catch(''),
      authMode: z.enum(['password', 'apikey']).catch('password'),
      username: z.string().catch(''),
      password: z.string().catch(''),
    })
    .catch({ serverUrl: '', authMode: 'password', username: '', password: '' }),
};
const KEYS = Object.keys(readers) as Key[];

/** Absent keys read as their defaults (each reader's fallback applied to `undefined`). */
export async function readSettings(db: Db): Promise<StoredSettings> {
  const rows = await db.select().from(settings).where(inArray(settings.key, KEYS));
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const result = {} as Record<Key, unknown>;
  for (const key of KEYS) result[key] = readers[key].parse(stored.get(key));
  return result as StoredSettings;
}

export function publicSettings(s: StoredSettings): Settings {
  const { clientSecret, ...spotify } = s.spotify;
  const { password, ...jellyfin } = s.jellyfin;
  return {
    ...s,
    spotify: { ...spotify, hasClientSecret: clientSecret !== '' },
    jellyfin: { ...jellyfin, hasPassword: password !== '' },
  };
}

/**
 * Applies an update: absent keys stay, nested objects merge one level (guest permissions two), and
 * the default-platform rules hold: it must be enabled, null or "" clears it, and a new provider
 * list without the stored default clears the default.
 */
export function mergeSettings(current: StoredSettings, update: SettingsUpdate): StoredSettings {
  const next: StoredSettings = { ...current };
  for (const key of KEYS) {
    if (!(key in update) || update[key] === undefined) continue;
    if (key === 'guestMode' && update.guestMode) {
      const { permissions, ...rest } = update.guestMode;
      next.guestMode = {
        ...current.guestMode,
        ...rest,
        permissions: { ...current.guestMode.permissions, ...permissions },
      };
    } else if (key === 'voiceDucking' || key === 'spotify' || key === 'jellyfin') {
      Object.assign(next, { [key]: { ...current[key], ...update[key] } });
    } else if (key !== 'defaultPlatform') {
      Object.assign(next, { [key]: update[key] });
    }
  }
  if (update.enabledProviders) next.enabledProviders = [...new Set(update.enabledProviders)];
  if ('defaultPlatform' in update) {
    const wanted = update.defaultPlatform;
    if (wanted === null || wanted === '' || wanted === undefined) next.defaultPlatform = null;
    else if (!next.enabledProviders.includes(wanted)) {
      throw new ApiError(400, `defaultPlatform: ${wanted} is not one of the enabled providers`);
    } else next.defaultPlatform = wanted;
  } else if (next.defaultPlatform && !next.enabledProviders.includes(next.defaultPlatform)) {
    next.defaultPlatform = null;
  }
  return next;
}

export async function writeSettings(db: Db, current: StoredSettings, next: StoredSettings): Promise<Key[]> {
  const changed = KEYS.filter((key) => JSON.stringify(current[key]) !== JSON.stringify(next[key]));
  const now = new Date();
  for (const key of changed) {
    await db
      .insert(settings)
      .values({ key, value: next[key], updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: next[key], updatedAt: now } });
  }
  return changed;
}
