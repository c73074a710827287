/**
 * The music platforms' health for admins: an addition to SPEC.md (issue 21), not part of its contract.
 * One call says, per enabled platform, whether this server can reach it, whether its shared login works
 * and what went wrong last, in words.
 */
import { z } from '@hono/zod-openapi';
import { PlatformSchema } from '../../shared/domain/schemas';
import { jsonResponse } from '../errors';
import { defineRoute } from '../policy';

export const SourceStatusSchema = z
  .object({
    platform: PlatformSchema,
    reachable: z.boolean().openapi({
      description:
        'The platform answered a probe from this server (3 s); a platform not on the internet (a Jellyfin ' +
        'server, uploaded files) is reachable when its own status answers.',
    }),
    loggedIn: z.boolean().optional().openapi({
      description:
        'Whether its shared login works; absent for a platform without logins or one that could not be asked.',
    }),
    error: z
      .string()
      .optional()
      .openapi({ description: 'What went wrong, in plain words; absent when all is well' }),
  })
  .openapi('SourceStatus');

export const getSourcesStatus = defineRoute({
  method: 'get',
  path: '/api/music/sources/status',
  tags: ['Music'],
  summary: 'Whether each enabled platform can be reached from this server, and is logged in',
  description:
    'An addition to SPEC (not in SPEC.md). Every enabled platform, in registry order, is asked at once; ' +
    'each has 3 s. An answer is kept for 30 s, so calling again soon asks no platform. A platform with ' +
    'no service of its own and no login (`stream`: whatever address someone gives) has nothing to check ' +
    'and is left out.',
  policy: { access: 'admin' },
  responses: {
    200: jsonResponse(
      z.object({ sources: z.array(SourceStatusSchema) }).openapi('SourcesStatus'),
      'One entry per enabled platform that has something to check',
    ),
  },
});
