/** Global settings (SPEC.md "Global settings", GET/POST /api/bot/settings). */
import { z } from '@hono/zod-openapi';
import { PLATFORMS } from '../../shared/domain/platforms';
import { PlatformSchema } from '../../shared/domain/schemas';
import { PLATFORM_SETTINGS_SLICES } from '../../shared/settings/platform-settings.generated';
import { slicesContract } from '../../shared/settings/settings-slice';
import { errors, jsonBody, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { GuestPermissionsSchema } from './session';

const VoiceDucking = z.object({ enabled: z.boolean(), volumePercent: z.number().int().min(0).max(100) });
const GuestBots = z.union([z.literal('all'), z.array(z.string().min(1).max(128)).max(1000)]);
const VoteSkipRatio = z
  .number()
  .min(0, 'voteSkipRatio must be 0 to 1')
  .max(1, 'voteSkipRatio must be 0 to 1')
  .openapi({
    description:
      "The share of the people in the bot's channel (bots not counted) whose `!skip` votes skip the " +
      'song, at least one vote; web votes (POST /api/player/{botId}/vote-skip) count with them. 0 turns ' +
      'voting off: `!skip` skips at once. Default 0.5.',
  });
const KeepUploads = z.boolean().openapi({
  description:
    'An addition to SPEC. Off (the default): an upload is deleted once it has been played and no queue, ' +
    "live or saved, lists it. On: played uploads stay as a library and go only under the disk quota's " +
    'pressure, the oldest no queue lists first.',
});

export const SettingsSchema = z
  .object({
    idleTimeoutMinutes: z
      .number()
      .int()
      .min(0)
      .max(1440)
      .openapi({ description: '0 disables auto-disconnect' }),
    autoPauseOnEmpty: z.boolean(),
    localAudioEnabled: z.boolean(),
    keepUploads: KeepUploads,
    voiceDucking: VoiceDucking,
    savedQueuesEnabled: z.boolean(),
    playKeepsQueue: z.boolean(),
    adminGroups: z.array(z.number().int()),
    voteSkipRatio: VoteSkipRatio,
    enabledProviders: z.array(PlatformSchema),
    // A union, not `.nullable()`: that documents a shared component as `allOf` it and null, which no
    // value satisfies.
    defaultPlatform: z.union([PlatformSchema, z.null()]),
    guestMode: z.object({ enabled: z.boolean(), bots: GuestBots, permissions: GuestPermissionsSchema }),
    // The platforms' parts, each declared with its settings slice in the platform's folder.
    ...slicesContract(PLATFORM_SETTINGS_SLICES, 'shown'),
  })
  .openapi('Settings');
export type Settings = z.infer<typeof SettingsSchema>;

export const SettingsUpdateSchema = z
  .strictObject({
    idleTimeoutMinutes: z.number().int().min(0).max(1440),
    autoPauseOnEmpty: z.boolean(),
    localAudioEnabled: z.boolean(),
    keepUploads: KeepUploads,
    voiceDucking: VoiceDucking.partial().strict(),
    savedQueuesEnabled: z.boolean(),
    playKeepsQueue: z.boolean(),
    adminGroups: z.array(z.number().int().min(0)).max(100),
    voteSkipRatio: VoteSkipRatio,
    enabledProviders: z.array(PlatformSchema).max(PLATFORMS.length),
    defaultPlatform: z.union([PlatformSchema, z.literal(''), z.null()]),
    guestMode: z.strictObject({
      enabled: z.boolean().optional(),
      bots: GuestBots.optional(),
      permissions: GuestPermissionsSchema.partial().strict().optional(),
    }),
    ...slicesContract(PLATFORM_SETTINGS_SLICES, 'update'),
  })
  .partial()
  .openapi('SettingsUpdate', {
    description: 'A partial merge: absent keys stay as they are; `defaultPlatform` null or "" clears it.',
  });
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

const tags = ['Settings'];

export const getSettings = defineRoute({
  method: 'get',
  path: '/api/bot/settings',
  tags,
  summary: 'Global settings (secrets are never returned, only whether they are set)',
  policy: { access: 'authenticated', nonGuest: true },
  responses: { 200: jsonResponse(SettingsSchema, 'Settings'), ...errors(401, 403) },
});

export const postSettings = defineRoute({
  method: 'post',
  path: '/api/bot/settings',
  tags,
  summary: 'Change global settings (partial merge)',
  description:
    '`defaultPlatform` must be one of the resulting `enabledProviders`; a new `enabledProviders` without the ' +
    'stored default clears it. Disabling guest mode ends every guest session and closes guest sockets; ' +
    'narrowing its bots re-scopes open guest sockets.',
  policy: { access: 'authenticated', capability: 'bot.manage' },
  request: { body: jsonBody(SettingsUpdateSchema) },
  responses: { 200: jsonResponse(SettingsSchema, 'The settings after the change'), ...errors(400, 401, 403) },
});
