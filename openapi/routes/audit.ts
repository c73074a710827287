/** The audit log (SPEC.md "Audit"), admin only, newest first. */
import { z } from '@hono/zod-openapi';
import { AUDIT_ACTIONS } from '../../shared/domain/constants';
import { errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { TimestampSchema } from './common';

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    timestamp: TimestampSchema,
    actorId: z.string().nullable(),
    actorUsername: z.string().nullable(),
    targetUserId: z.string().nullable(),
    targetUsername: z.string().nullable(),
    action: z.enum(AUDIT_ACTIONS),
  })
  .openapi('AuditEntry');

export const listAudit = defineRoute({
  method: 'get',
  path: '/api/audit',
  tags: ['Audit'],
  summary: 'Audit entries, newest first',
  policy: { access: 'admin' },
  request: {
    query: z.object({
      limit: z.coerce
        .number()
        .int()
        .min(1, 'limit must be 1 to 500')
        .max(500, 'limit must be 1 to 500')
        .default(100),
      offset: z.coerce.number().int().min(0, 'offset must be 0 or more').default(0),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ entries: z.array(AuditEntrySchema) }).openapi('AuditPage'), 'Entries'),
    ...errors(400, 401, 403),
  },
});
