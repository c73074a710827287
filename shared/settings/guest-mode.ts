/**
 * Guest mode as stored in the settings row `guestMode`: whether guests may sign in, which bots they
 * reach and what they may do there (DECISIONS.md "Guest permissions").
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { GUEST_PERMISSION_DEFAULTS, type GuestPermission } from '../domain/constants';
import { parseStoredValue } from './stored-value';

export type GuestPermissions = Record<GuestPermission, boolean>;

export interface GuestModeSettings {
  enabled: boolean;
  bots: 'all' | string[];
  permissions: GuestPermissions;
}

const storedSchema = z.object({
  enabled: z.boolean().catch(false),
  // Enabling guest mode without picking bots opens every bot, which is what an admin expects.
  bots: z.union([z.literal('all'), z.array(z.string())]).catch('all'),
  permissions: z.record(z.string(), z.unknown()).catch({}),
});

/** Fills in defaults and drops unknown or non-boolean flags, so old or damaged rows still read sanely. */
export function normalizeGuestMode(value: unknown): GuestModeSettings {
  const parsed = storedSchema.safeParse(value ?? {});
  const stored = parsed.success ? parsed.data : { enabled: false, bots: 'all' as const, permissions: {} };
  const permissions = { ...GUEST_PERMISSION_DEFAULTS } as GuestPermissions;
  for (const key of Object.keys(GUEST_PERMISSION_DEFAULTS) as GuestPermission[]) {
    const flag = stored.permissions[key];
    if (typeof flag === 'boolean') permissions[key] = flag;
  }
  return { enabled: stored.enabled, bots: stored.bots, permissions };
}

export async function readGuestMode(db: Db): Promise<GuestModeSettings> {
  const row = await db.query.settings.findFirst({ where: eq(settings.key, 'guestMode') });
  return normalizeGuestMode(row && parseStoredValue(row.value));
}
