/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { z } from '@hono/zod-openapi';
import { BotStatusSchema } from '../../shared/domain/schemas';
import { errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';

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
