/**
 * Session ids change whenever the privilege behind them does, so an id that leaked or was planted
 * before never carries the new privilege (issue #16):
 * - a login or first-run setup ends every session the browser brought along and starts a new one (a
 *   guest session is ended by the next guest session);
 * - a password change or reset ends every session of the account but the caller's own, when it was
 *   their own account: that one goes on with the same cookie (SPEC Auth rule 6), and it proved the
 *   current password (a change) or an admin's authority (a reset) to get there.
 * A role change ends nothing (SPEC Auth rule 6 does not list it): the role is read on every request, so
 * the account's sessions and keys carry the new role from their next call.
 */
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { sessions } from '../../shared/db/schema';
import { announceAccountsChanged } from '../access/accounts-changed';
import {
  clearSessionCookie,
  readSessionCookie,
  type SessionKind,
  type SessionStores,
  writeSessionCookie,
} from '../access/sessions';
import type { AppDeps, AppEnv } from '../env';

export interface SessionRotation {
  /** Ends the sessions of `kinds` the request carries; a kind not started again has its cookie cleared. */
  endCarried(c: Context<AppEnv>, kinds: readonly SessionKind[], startingKind?: SessionKind): Promise<void>;
  /** Starts a session of `kind` for `userId` and hands its cookie to the caller. */
  start(c: Context<AppEnv>, kind: SessionKind, userId: string): Promise<void>;
}

export function sessionRotation({ db, bus, config }: AppDeps, stores: SessionStores): SessionRotation {
  return {
    async endCarried(c, kinds, startingKind) {
      const owners: string[] = [];
      for (const kind of kinds) {
        const sessionId = readSessionCookie(c, kind);
        if (!sessionId) continue;
        // Deleted here rather than by lucia, to learn whose session it was: its sockets close too.
        const ended = await db
          .delete(sessions)
          .where(eq(sessions.id, sessionId))
          .returning({ userId: sessions.userId });
        owners.push(...ended.map((row) => row.userId));
        if (kind !== startingKind) clearSessionCookie(c, kind);
      }
      announceAccountsChanged(bus, owners);
    },
    async start(c, kind, userId) {
      const session = await stores[kind].createSession(userId, {});
      writeSessionCookie(c, kind, session, config);
    },
  };
}
