/**
 * Global settings as stored, read into a sane object: every key has a default, and a damaged or legacy
 * row falls back per key. The api (GET/POST /api/bot/settings) and the daemons read them here.
 */
import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import {
  DEFAULT_ENABLED_PROVIDERS,
  DEFAULT_VOTE_SKIP_RATIO,
  PLATFORMS,
  type Platform,
} from '../domain/constants';
import { type GuestModeSettings, normalizeGuestMode } from './guest-mode';
import { PLATFORM_SETTINGS_SLICES } from './platform-settings.generated';
import { parseStoredValue } from './stored-value';

/** The settings slices of the platforms that keep settings, as their modules name them (written out by `make openapi`). */
export const PLATFORM_SETTINGS = PLATFORM_SETTINGS_SLICES;
type PlatformSlice = (typeof PLATFORM_SETTINGS)[number];
/** The platforms' settings, each under its slice's key, as its reader makes them. */
type PlatformSettings = { [S in PlatformSlice as S['key']]: z.output<S['reader']> };
const sliceReaders = Object.fromEntries(PLATFORM_SETTINGS.map((slice) => [slice.key, slice.reader])) as {
  [S in PlatformSlice as S['key']]: S['reader'];
};

/** Settings as stored; the write-only secrets (`clientSecret`, `password`) never leave the server. */
export interface StoredSettings extends PlatformSettings {
  idleTimeoutMinutes: number;
  autoPauseOnEmpty: boolean;
  localAudioEnabled: boolean;
  /** Played uploads no queue lists stay as a library; only quota pressure removes them, oldest first. */
  keepUploads: boolean;
  voiceDucking: { enabled: boolean; volumePercent: number };
  savedQueuesEnabled: boolean;
  playKeepsQueue: boolean;
  adminGroups: number[];
  /** The share of the channel whose `!skip` votes skip a song; 0 makes `!skip` act at once. */
  voteSkipRatio: number;
  enabledProviders: Platform[];
  defaultPlatform: Platform | null;
  guestMode: GuestModeSettings;
}
export type SettingsKey = keyof StoredSettings;

const platform = z.enum(PLATFORMS);
/** SPEC rule 3: only a stored `true` is true. */
const strictBoolean = z.unknown().transform((v) => v === true);

const readers: { [K in SettingsKey]: z.ZodType<StoredSettings[K]> } = {
  idleTimeoutMinutes: z.number().int().min(0).max(1440).catch(0),
  autoPauseOnEmpty: z.boolean().catch(true),
  localAudioEnabled: z.boolean().catch(true),
  keepUploads: strictBoolean,
  voiceDucking: z
    .object({ enabled: z.boolean().catch(false), volumePercent: z.number().int().min(0).max(100).catch(30) })
    .catch({ enabled: false, volumePercent: 30 }),
  savedQueuesEnabled: strictBoolean,
  playKeepsQueue: strictBoolean,
  adminGroups: z.array(z.number().int()).catch([]),
  voteSkipRatio: z.number().min(0).max(1).catch(DEFAULT_VOTE_SKIP_RATIO),
  // A legacy configuration without this key gets the SPEC default.
  enabledProviders: z.array(platform).catch([...DEFAULT_ENABLED_PROVIDERS]),
  defaultPlatform: platform.nullable().catch(null),
  guestMode: z.unknown().transform(normalizeGuestMode),
  // The platforms' own slices (each declared in its folder, named by its module).
  ...sliceReaders,
};
export const SETTINGS_KEYS = Object.keys(readers) as SettingsKey[];

/** Absent keys read as their defaults (each reader's fallback applied to `undefined`). */
export async function readSettings(db: Db): Promise<StoredSettings> {
  const rows = await db.select().from(settings).where(inArray(settings.key, SETTINGS_KEYS));
  const stored = new Map(rows.map((r) => [r.key, parseStoredValue(r.value)]));
  const result = {} as Record<SettingsKey, unknown>;
  for (const key of SETTINGS_KEYS) result[key] = readers[key].parse(stored.get(key));
  return result as StoredSettings;
}
