/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { z } from '@hono/zod-openapi';
import { BotStatusSchema } from '../../shared/domain/schemas';
import { errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { IdParamSchema } from './common';

export const listBots = defineRoute({
  method: 'get',
  path: '/api/bot',
  tags: ['Bots'],
  summary: 'List bots with their live status',
  description: 'Members see only the bots granted to them; admins see all.',
  policy: { access: 'authenticated' },
  responses: {
    200: jsonResponse(z.object({ bots: z.array(BotStatusSchema) }).openapi('BotList'), 'Bots'),
    ...errors(401, 503),
  },
});

export const getBot = defineRoute({
  method: 'get',
  path: '/api/bot/{id}',
  tags: ['Bots'],
  summary: "One bot's live status",
  description: 'Answers 503 when no daemon runs the bot or the message bus is down.',
  policy: { access: 'authenticated', botParam: 'id' },
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse(BotStatusSchema, 'The bot'), ...errors(401, 403, 404, 503) },
});
