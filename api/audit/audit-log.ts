/** Writes audit entries. Usernames are copied in so an entry still reads right after a deletion. */
import type { Db } from '../../shared/db/client';
import { auditLog } from '../../shared/db/schema';
import type { AuditAction } from '../../shared/domain/constants';

export interface AuditParty {
  /** Null for a target that is not an account (a daemon, named by its DAEMON_ID). */
  id: string | null;
  username: string;
}

type Executor = Pick<Db, 'insert'>;

export async function recordAudit(
  db: Executor,
  action: AuditAction,
  actor: AuditParty | null,
  target: AuditParty | null,
): Promise<void> {
  await db.insert(auditLog).values({
    timestamp: new Date(),
    action,
    actorId: actor?.id ?? null,
    actorUsername: actor?.username ?? null,
    targetUserId: target?.id ?? null,
    targetUsername: target?.username ?? null,
  });
}
