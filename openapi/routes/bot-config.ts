/** Bot configuration and avatar routes (SPEC.md "Bots: /api/bot" and "Bot configuration"). */
import { z } from '@hono/zod-openapi';
import {
  NICKNAME_MAX,
  NICKNAME_MIN,
  SERVER_ADDRESS_MAX,
  SERVER_ADDRESS_PATTERN,
  serverAddressProblem,
} from '../../shared/domain/bot-rules';
import { CLIENT_VERSION_CHOICES } from '../../shared/domain/client-versions';
import { BotStatusSchema } from '../../shared/domain/schemas';
import { errors, jsonBody, jsonResponse, receiptFields } from '../errors';
import { defineRoute } from '../policy';
import { IdParamSchema, SuccessSchema } from './common';

const optionalText = (max: number) => z.string().trim().max(max).optional();

const ConfigFields = {
  name: z
    .string()
    .trim()
    .min(1, 'name must be 1 to 64 characters')
    .max(64, 'name must be 1 to 64 characters'),
  serverAddress: z
    .string()
    .trim()
    .min(1, 'serverAddress is required')
    .max(SERVER_ADDRESS_MAX)
    .regex(SERVER_ADDRESS_PATTERN, 'serverAddress must be a host name or IP address')
    .refine(
      (address) => serverAddressProblem(address) !== 'withPort',
      'serverAddress is the host alone: give the port as serverPort',
    ),
  nickname: z
    .string()
    .trim()
    .min(NICKNAME_MIN, `nickname must be ${NICKNAME_MIN} to ${NICKNAME_MAX} characters`)
    .max(NICKNAME_MAX, `nickname must be ${NICKNAME_MIN} to ${NICKNAME_MAX} characters`),
  serverPort: z.number().int().min(1).max(65535),
  defaultChannel: optionalText(255).openapi({ description: 'Channel name or path (`Music/Lounge`) to join' }),
  channelId: z
    .string()
    .trim()
    .regex(/^\d{0,10}$/, 'channelId must be a channel number')
    .optional()
    .openapi({ description: 'Channel id to join; wins over defaultChannel' }),
  channelPassword: optionalText(255).openapi({ description: 'Write-only' }),
  serverPassword: optionalText(255).openapi({ description: 'Write-only' }),
  autoStart: z.boolean(),
  clientVersion: z
    .enum(CLIENT_VERSION_CHOICES, {
      message: `clientVersion must be one of ${CLIENT_VERSION_CHOICES.join(', ')}`,
    })
    .openapi({
      description:
        'The TeamSpeak client version the bot reports. `auto` picks one by the server (TeamSpeak 6 servers ' +
        'drop 3.x clients); the others are versions TeamSpeak signed.',
    }),
};

export const BotConfigCreateSchema = z
  .strictObject({
    ...ConfigFields,
    serverPort: ConfigFields.serverPort.optional().openapi({ description: 'Default 9987' }),
    autoStart: ConfigFields.autoStart.optional().openapi({ description: 'Default false' }),
    clientVersion: ConfigFields.clientVersion.optional().openapi({ description: 'Default `auto`' }),
  })
  .openapi('BotConfigCreate');

export const BotConfigUpdateSchema = z.strictObject(ConfigFields).partial().openapi('BotConfigUpdate', {
  description: 'Only the fields sent change; an empty string clears an optional field.',
});

export const BotConfigSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    serverAddress: z.string(),
    serverPort: z.number().int(),
    nickname: z.string(),
    defaultChannel: z.string().nullable(),
    channelId: z.string().nullable(),
    autoStart: z.boolean(),
    clientVersion: z.enum(CLIENT_VERSION_CHOICES),
    hasServerPassword: z.boolean(),
    hasChannelPassword: z.boolean(),
    hasAvatar: z
      .boolean()
      .openapi({ description: 'An avatar is stored (`GET /api/bot/{id}/avatar` answers it, 404 otherwise)' }),
  })
  .openapi('BotConfig', {
    description:
      'The saved configuration. The voice identity and query key are never returned; passwords only as `has…` flags.',
  });

const tags = ['Bots'];
const manage = { access: 'authenticated', capability: 'bot.manage' } as const;
const manageBot = { ...manage, botParam: 'id' } as const;
const params = IdParamSchema;

export const createBot = defineRoute({
  method: 'post',
  path: '/api/bot',
  tags,
  summary: 'Create a bot',
  policy: manage,
  request: { body: jsonBody(BotConfigCreateSchema) },
  responses: { 201: jsonResponse(BotStatusSchema, 'The new bot'), ...errors(400, 401, 403) },
});

export const updateBot = defineRoute({
  method: 'put',
  path: '/api/bot/{id}',
  tags,
  summary: "Change a bot's configuration",
  description: 'Connection changes apply after stop then start.',
  policy: manageBot,
  request: { params, body: jsonBody(BotConfigUpdateSchema) },
  responses: { 200: jsonResponse(SuccessSchema, 'Saved'), ...errors(400, 401, 403, 404) },
});

export const deleteBot = defineRoute({
  method: 'delete',
  path: '/api/bot/{id}',
  tags,
  summary: 'Delete a bot',
  description: 'Disconnects it, removes its access grants and tells open sockets (`botRemoved`).',
  policy: manageBot,
  request: { params },
  responses: { 204: { description: 'Deleted' }, ...errors(401, 403, 404) },
});

export const getBotConfig = defineRoute({
  method: 'get',
  path: '/api/bot/{id}/config',
  tags,
  summary: "A bot's saved configuration",
  policy: manageBot,
  request: { params },
  responses: { 200: jsonResponse(BotConfigSchema, 'Configuration'), ...errors(401, 403, 404) },
});

export const getBotAvatar = defineRoute({
  method: 'get',
  path: '/api/bot/{id}/avatar',
  tags,
  summary: "The bot's avatar image",
  policy: manageBot,
  request: { params },
  responses: {
    200: {
      description: 'The image',
      content: {
        'image/png': { schema: z.string().openapi({ format: 'binary' }) },
        'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) },
        'image/webp': { schema: z.string().openapi({ format: 'binary' }) },
      },
    },
    ...errors(401, 403, 404),
  },
});

export const putBotAvatar = defineRoute({
  method: 'put',
  path: '/api/bot/{id}/avatar',
  tags,
  summary: "Set the bot's avatar",
  description: 'A data URL of a PNG, JPEG or WebP image of at most 200 KB. The type is read from the bytes.',
  policy: manageBot,
  request: {
    params,
    body: jsonBody(
      z.strictObject({
        dataUrl: z
          .string()
          .max(300_000, 'dataUrl: the image must be at most 200 KB')
          .openapi({ example: 'data:image/png;base64,iVBORw0KGgo…' }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(z.object({ path: z.string() }).openapi('AvatarPath'), 'Stored'),
    ...errors(400, 401, 403, 404),
  },
});

export const deleteBotAvatar = defineRoute({
  method: 'delete',
  path: '/api/bot/{id}/avatar',
  tags,
  summary: "Remove the bot's avatar",
  policy: manageBot,
  request: { params },
  responses: { 204: { description: 'Removed' }, ...errors(401, 403, 404) },
});

export const startBot = defineRoute({
  method: 'post',
  path: '/api/bot/{id}/start',
  tags,
  summary: 'Connect the bot to its voice server',
  description:
    'Waits for the handshake up to 15 seconds; past that the instance is torn down and the call answers 500.',
  policy: manageBot,
  request: { params },
  responses: {
    200: jsonResponse(
      BotStatusSchema.extend(receiptFields).openapi('BotStarted', {
        description:
          'The status and the receipt ("Connected."; when the configured channel does not exist, a second ' +
          'sentence in `more` names it and the channel joined instead). The receipt fields are an addition.',
      }),
      'Connected',
    ),
    ...errors(401, 403, 404, 500, 503),
  },
});

export const stopBot = defineRoute({
  method: 'post',
  path: '/api/bot/{id}/stop',
  tags,
  summary: 'Disconnect the bot and clear its player state',
  policy: manageBot,
  request: { params },
  responses: { 200: jsonResponse(BotStatusSchema, 'Disconnected'), ...errors(401, 403, 404, 503) },
});
