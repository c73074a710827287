/** Saved queues (SPEC.md "Saved queues: /api/saved-queues"). */
import { z } from '@hono/zod-openapi';
import { errors, jsonBody, jsonResponse, receiptFields } from '../errors';
import { defineRoute } from '../policy';
import { IdParamSchema, TimestampSchema } from './common';

export const SavedQueueSchema = z
  .object({
    id: z.string(),
    ownerId: z.string().openapi({ description: 'A user id, or `shared`' }),
    name: z.string(),
    songCount: z.number().int(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .openapi('SavedQueue');

const tags = ['Saved queues'];
const policy = { access: 'authenticated', nonGuest: true } as const;
const disabled = 'Answers 403 while `savedQueuesEnabled` is off, before the request is validated.';
const botId = z.string().min(1).max(128);

export const listSavedQueues = defineRoute({
  method: 'get',
  path: '/api/saved-queues',
  tags,
  summary: 'Your saved queues and the shared ones',
  description: `\`songCount\` is what loading the queue would load: 0 for one whose stored songs are corrupt. ${disabled}`,
  policy,
  responses: {
    200: jsonResponse(z.object({ queues: z.array(SavedQueueSchema) }).openapi('SavedQueueList'), 'Queues'),
    ...errors(401, 403),
  },
});

export const saveQueue = defineRoute({
  method: 'post',
  path: '/api/saved-queues',
  tags,
  summary: "Save a bot's current queue under a name",
  description: `A queue with the same name (same owner) is overwritten. At most 50 queues per owner and 1000 songs per queue. An empty queue is a 400. ${disabled}`,
  policy,
  request: {
    body: jsonBody(
      z.strictObject({
        botId,
        name: z
          .string()
          .trim()
          .min(1, 'name must be 1 to 64 characters')
          .max(64, 'name must be 1 to 64 characters'),
        shared: z.boolean().optional().openapi({ description: 'Save into the shared bucket' }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(z.object({ queue: SavedQueueSchema }).openapi('SavedQueueEnvelope'), 'Saved'),
    ...errors(400, 401, 403, 404, 409, 503),
  },
});

export const loadSavedQueue = defineRoute({
  method: 'post',
  path: '/api/saved-queues/{id}/load',
  tags,
  summary: 'Load a saved queue into a bot',
  description: `\`replace\` (default) swaps the bot's queue; \`append\` adds to it. Needs \`player.queue\` and access to the bot. ${disabled}`,
  policy,
  request: {
    params: IdParamSchema,
    body: jsonBody(z.strictObject({ botId, mode: z.enum(['replace', 'append']).optional() })),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          ok: z.boolean(),
          loaded: z.number().int(),
          mode: z.enum(['replace', 'append']),
          ...receiptFields,
          message: receiptFields.message.openapi({
            description: 'The receipt, as the `load` chat command replies it',
          }),
          undoToken: z.string().optional().openapi({
            description:
              'A `replace` that swapped a queue with songs: `POST /api/player/{botId}/undo` `{token}` gives it back',
          }),
        })
        .openapi('SavedQueueLoad'),
      'Loaded',
    ),
    ...errors(400, 401, 403, 404, 409, 503),
  },
});

export const deleteSavedQueue = defineRoute({
  method: 'delete',
  path: '/api/saved-queues/{id}',
  tags,
  summary: 'Delete a saved queue (yours, or a shared one)',
  description: disabled,
  policy,
  request: { params: IdParamSchema },
  responses: {
    200: jsonResponse(z.object({ ok: z.literal(true) }).openapi('OkTrue'), 'Deleted'),
    ...errors(401, 403, 404),
  },
});
