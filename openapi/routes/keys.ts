/** API key management (SPEC.md "API keys: /api/keys"): browser session only. */
import { z } from '@hono/zod-openapi';
import { errors, jsonBody, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { IdParamSchema, SuccessSchema, TimestampSchema } from './common';

export const ApiKeySchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    username: z.string().optional().openapi({ description: 'Only in the all-users listing' }),
    name: z.string(),
    keyPrefix: z
      .string()
      .openapi({ description: 'The first 12 characters of the key, for telling keys apart' }),
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable(),
  })
  .openapi('ApiKey');

const tags = ['API keys'];
const policy = { access: 'authenticated', sessionOnly: true, nonGuest: true } as const;

export const listKeys = defineRoute({
  method: 'get',
  path: '/api/keys',
  tags,
  summary: 'List your API keys (admins: every key with `?all=1`)',
  policy,
  request: { query: z.object({ all: z.enum(['0', '1']).optional() }) },
  responses: {
    200: jsonResponse(z.object({ keys: z.array(ApiKeySchema) }).openapi('ApiKeyList'), 'Keys'),
    ...errors(400, 401, 403),
  },
});

export const createKey = defineRoute({
  method: 'post',
  path: '/api/keys',
  tags,
  summary: 'Create an API key; the raw key is shown only in this answer',
  description: 'At most 20 keys per account (409 beyond).',
  policy,
  request: {
    body: jsonBody(
      z.strictObject({
        name: z
          .string()
          .trim()
          .min(1, 'name must be 1 to 64 characters')
          .max(64, 'name must be 1 to 64 characters'),
      }),
    ),
  },
  responses: {
    201: jsonResponse(
      z.object({ key: ApiKeySchema, rawKey: z.string() }).openapi('CreatedApiKey'),
      'Created',
    ),
    ...errors(400, 401, 403, 409),
  },
});

export const deleteKey = defineRoute({
  method: 'delete',
  path: '/api/keys/{id}',
  tags,
  summary: 'Revoke an API key (your own; admins any)',
  policy,
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse(SuccessSchema, 'Revoked'), ...errors(401, 403, 404) },
});
