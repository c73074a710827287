/**
 * Browser sessions (lucia v3 over the drizzle adapter). Members and guests have separate cookies
 * because their lifetimes differ (7 days and 1 day, both rolling: a use renews the session to a full
 * lifetime once an hour has passed since it was last set, and we re-send the cookie then). Lucia
 * creates and ends sessions; a request's session is checked by the one-statement principal read
 * (load-principal.ts) with the rules of `sessionState`.
 */
import { DrizzleSQLiteAdapter } from '@lucia-auth/adapter-drizzle';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { Lucia, TimeSpan } from 'lucia';
import type { Db } from '../../shared/db/client';
import { sessions, users } from '../../shared/db/schema';
import type { AppEnv } from '../env';
import { type ProxyTrust, requestProto } from '../middleware/client-view';

export const MEMBER_SESSION_COOKIE = 'tsmb_session';
export const GUEST_SESSION_COOKIE = 'tsmb_guest';

export type SessionKind = 'member' | 'guest';

export interface SessionStores {
  member: Lucia;
  guest: Lucia;
}

const SESSION_LIFETIME: Record<SessionKind, TimeSpan> = {
  member: new TimeSpan(7, 'd'),
  guest: new TimeSpan(1, 'd'),
};
export const SESSION_LIFETIME_MS: Record<SessionKind, number> = {
  member: SESSION_LIFETIME.member.milliseconds(),
  guest: SESSION_LIFETIME.guest.milliseconds(),
};

export function createSessionStores(db: Db): SessionStores {
  const adapter = new DrizzleSQLiteAdapter(db, sessions, users);
  return {
    member: new Lucia(adapter, { sessionExpiresIn: SESSION_LIFETIME.member }),
    guest: new Lucia(adapter, { sessionExpiresIn: SESSION_LIFETIME.guest }),
  };
}

/**
 * How stale a session's end may get before a use moves it: the idle limit is its lifetime to within
 * this much, and a session costs at most one write per this much however often it is used.
 */
export const SESSION_REFRESH_STEP_MS = 60 * 60 * 1000;

/**
 * What a stored session is worth at `now`: past its end it is expired (and gets deleted); used more
 * than SESSION_REFRESH_STEP_MS after its end was last set, it is renewed to a full lifetime from now
 * (SPEC Session: "refreshed on use (rolling)").
 */
export type SessionState = { state: 'expired' } | { state: 'valid' } | { state: 'renew'; expiresAt: Date };

export function sessionState(kind: SessionKind, expiresAt: Date, now = Date.now()): SessionState {
  const lifetimeMs = SESSION_LIFETIME_MS[kind];
  if (now >= expiresAt.getTime()) return { state: 'expired' };
  if (now >= expiresAt.getTime() - lifetimeMs + SESSION_REFRESH_STEP_MS)
    return { state: 'renew', expiresAt: new Date(now + lifetimeMs) };
  return { state: 'valid' };
}

/** Stores a renewed end (epoch seconds, as lucia's adapter keeps it). */
export async function renewSession(db: Db, sessionId: string, expiresAt: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ expiresAt: Math.floor(expiresAt.getTime() / 1000) })
    .where(eq(sessions.id, sessionId));
}

const cookieName = (kind: SessionKind) => (kind === 'member' ? MEMBER_SESSION_COOKIE : GUEST_SESSION_COOKIE);

export function writeSessionCookie(
  c: Context<AppEnv>,
  kind: SessionKind,
  session: { id: string; expiresAt: Date },
  trust: ProxyTrust,
): void {
  setCookie(c, cookieName(kind), session.id, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: requestProto(c, trust) === 'https',
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(c: Context<AppEnv>, kind: SessionKind): void {
  deleteCookie(c, cookieName(kind), { path: '/' });
}

export function readSessionCookie(c: Context<AppEnv>, kind: SessionKind): string | undefined {
  return getCookie(c, cookieName(kind)) || undefined;
}

export function hasAnySessionCookie(c: Context<AppEnv>): boolean {
  return readSessionCookie(c, 'member') !== undefined || readSessionCookie(c, 'guest') !== undefined;
}
