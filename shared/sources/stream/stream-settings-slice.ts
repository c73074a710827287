/**
 * The settings slice of addresses people give (shared/settings/settings-slice.ts): whether they may
 * reach loopback, private and link-local hosts (a radio server on the LAN). SPEC rule 3: only a
 * stored `true` is true.
 */
import { z } from 'zod';
import type { SettingsSlice } from '../../settings/settings-slice';

export const streamSettings = {
  key: 'streamAllowPrivateHosts',
  reader: z.unknown().transform((v) => v === true),
} as const satisfies SettingsSlice<'streamAllowPrivateHosts', boolean>;
