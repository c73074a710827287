/**
 * Operations on the daemons of a scaled-out service, admin only: draining one before an upgrade or a
 * machine's maintenance (wrangler-free-deploy/RUNBOOK.md "Rolling upgrade").
 */
import { z } from '@hono/zod-openapi';
import { errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';

export const DaemonParamSchema = z.object({
  daemonId: z
    .string()
    .regex(/^[\w-]{1,64}$/, 'a daemon id holds 1 to 64 letters, digits, _ and -')
    .openapi({ param: { name: 'daemonId', in: 'path' }, example: 'daemon-1' }),
});

export const drainDaemon = defineRoute({
  method: 'post',
  path: '/api/admin/daemons/{daemonId}/drain',
  tags: ['Daemons'],
  summary: 'Move every bot of a daemon to the others, then stop it',
  description:
    'The daemon (its DAEMON_ID) hands its bots over one at a time, each as a restart hands it over: it ' +
    'leaves its voice server and the next daemon joins and resumes at the same position, a second or two ' +
    'later. Once every bot has a new owner the daemon stops as it does on SIGTERM. Answers at once; ' +
    '404 when no daemon of that id is running, 409 when it is the only one (nobody could take its bots).',
  policy: { access: 'admin' },
  request: { params: DaemonParamSchema },
  responses: {
    202: jsonResponse(
      z
        .object({
          daemonId: z.string(),
          bots: z.number().int().openapi({ description: 'How many bots it is moving' }),
        })
        .openapi('DrainStarted'),
      'The daemon is draining',
    ),
    ...errors(404, 409),
  },
});
