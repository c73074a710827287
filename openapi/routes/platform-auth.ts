/** Platform accounts (SPEC.md "Platform accounts: /api/auth"): the logins every bot shares. */
import { z } from '@hono/zod-openapi';
import { errors, jsonBody, jsonResponse } from '../errors';
import { defineRoute } from '../policy';

const optionalText = (max: number) => z.string().max(max).optional();

export const testJellyfin = defineRoute({
  method: 'post',
  path: '/api/auth/jellyfin/test',
  tags: ['Platform accounts'],
  summary: 'Test a library_a (Jellyfin) server and its credentials',
  description:
    'Empty or absent fields fall back to the stored `jellyfin` settings; nothing is stored. A server that ' +
    'cannot be reached or refuses the credentials is `{ok: false, error}` with the reason, not an HTTP error.',
  policy: { access: 'authenticated', capability: 'platform.auth' },
  request: {
    body: jsonBody(
      z
        .object({
          serverUrl: optionalText(2048),
          authMode: z.enum(['password', 'apikey']).optional(),
          username: optionalText(256),
          password: optionalText(1024),
          apiKey: optionalText(1024),
          userId: optionalText(256),
        })
        .strict(),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        ok: z.boolean(),
        serverName: z.string().optional(),
        version: z.string().optional(),
        error: z.string().optional(),
      }),
      'The outcome of the test',
    ),
    ...errors(400, 401),
  },
});
