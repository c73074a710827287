/**
 * The settings slice of addresses people give (shared/settings/settings-slice.ts): whether they may
 * reach loopback, private and link-local hosts (a radio server on the LAN). SPEC rule 3: only a
 * stored `true` is true.
 */
import { z } from '@hono/zod-openapi';
import type { SettingsSlice } from '../../settings/settings-slice';

const AllowPrivateHosts = z.boolean().openapi({
  description:
    'Whether platform `stream` may play addresses on loopback, private, link-local, multicast or unspecified hosts (IPv4 and IPv6, checked at every redirect). Default false: such addresses are refused with 400, so a user cannot make the server fetch from its own network.',
});

export const streamSettings = {
  key: 'streamAllowPrivateHosts',
  reader: z.unknown().transform((v) => v === true),
  shown: AllowPrivateHosts,
  update: AllowPrivateHosts,
} as const satisfies SettingsSlice<'streamAllowPrivateHosts', boolean>;
