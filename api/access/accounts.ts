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

/**
 * True for a row that may stop being an admin: a non-admin, or an admin while another admin exists.
 * It is part of the write's own WHERE, so the count and the write are one statement: SQLite takes
 * the write lock before the statement reads, so of two admins demoting or deleting each other at
 * once, the second finds the first already gone (on a local file and on a libSQL server alike).
 */
const leavesAnAdmin = sql`(users.role != 'admin'
  OR EXISTS (SELECT 1 FROM users AS other WHERE other.role = 'admin' AND other.id != users.id))`;

/** Why a guarded write changed no row: the account went meanwhile (404), or it is the last admin. */
async function refusedChange(db: Db, user: UserRow, verb: string): Promise<never> {
  await findManagedUser(db, user.id);
  throw new ApiError(409, `the last admin cannot be ${verb}`);
}

/** Sets an account's role; demoting the last admin is refused (409). */
export async function changeUserRole(db: Db, user: UserRow, role: 'admin' | 'member'): Promise<void> {
  const guard = role === 'member' ? leavesAnAdmin : sql`1`;
  const changed = await db
    .update(users)
    .set({ role })
    .where(and(eq(users.id, user.id), guard));
  if (changed.rowsAffected === 0) await refusedChange(db, user, 'demoted');
}

/** Deletes an account (its credentials, grants and links go by cascade); the last admin is refused (409). */
export async function deleteUserRow(db: Db, user: UserRow): Promise<void> {
  const deleted = await db.delete(users).where(and(eq(users.id, user.id), leavesAnAdmin));
  if (deleted.rowsAffected === 0) await refusedChange(db, user, 'deleted');
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
