/**
 * Account rules shared by the session and user routes: finding users, the last-admin rule, and
 * revoking credentials after a password change.
 */
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../shared/db/client';
import { apiKeys, sessions, users } from '../../shared/db/schema';
import { GUEST_PRINCIPAL_ID } from '../../shared/domain/constants';
import { say } from '../../shared/i18n/phrases';
import { ApiError } from '../errors';

export type UserRow = typeof users.$inferSelect;

/** A managed account by id: the synthetic guest principal is never one (404, as for unknown ids). */
export async function findManagedUser(db: Db, id: string): Promise<UserRow> {
  const user =
    id === GUEST_PRINCIPAL_ID ? undefined : await db.query.users.findFirst({ where: eq(users.id, id) });
  if (!user || user.role === 'guest') throw new ApiError(404, say.userNotFound());
  return user;
}

export async function findUserByName(db: Db, username: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: sql`lower(${users.username}) = lower(${username})` });
}

export async function adminCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
  return row?.n ?? 0;
}

export async function ensureNotLastAdmin(db: Db, user: UserRow, verb: string): Promise<void> {
  if (user.role === 'admin' && (await adminCount(db)) <= 1) {
    throw new ApiError(409, `the last admin cannot be ${verb}`);
  }
}

/**
 * After a password change every API key of the account is revoked and its sessions end, all but
 * `keptSessionId`: the session of a caller who changed or reset their own password goes on, cookie
 * and all (SPEC Auth rule 6).
 */
export async function revokeCredentials(db: Db, userId: string, keptSessionId?: string): Promise<void> {
  await db.delete(apiKeys).where(eq(apiKeys.userId, userId));
  await db
    .delete(sessions)
    .where(
      keptSessionId === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, keptSessionId)),
    );
}
