/** GET /api/audit. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { desc } from 'drizzle-orm';
import { listAudit } from '../../openapi/routes/audit';
import { auditLog } from '../../shared/db/schema';
import { AUDIT_ACTIONS, type AuditAction } from '../../shared/domain/constants';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';

const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

export function auditRoutes({ db }: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(listAudit, async (c) => {
    const { limit, offset } = c.req.valid('query');
    const rows = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit).offset(offset);
    const entries = rows
      .filter((row) => isAuditAction(row.action))
      .map((row) => ({ ...row, action: row.action as AuditAction, timestamp: row.timestamp.toISOString() }));
    return c.json({ entries }, 200);
  });
}
