/**
 * Who is signed in (`GET /api/session/me`), whether the service still needs its first admin, and the
 * sign-in, guest, sign-out and setup calls. `can` answers for the current principal.
 */
import type { Schemas } from '@api/index';
import type { Actor } from '@shared/access/object-rules';
import { pageActor } from '@shared/access/page-access';
import { passesEveryCheck } from '@shared/access/route-access';
import { reactive } from 'vue';
import { allowed, type Method } from '../api/access';
import { api, type CallResult, call } from '../api/client';

export const session = reactive({
  me: null as Schemas['Me'] | null,
  needsSetup: false,
  /** True once the first answer about the session arrived. */
  known: false,
});

export const can = (method: Method, path: string, botId?: string): boolean =>
  allowed(session.me, method, path, botId);

export const isAdmin = (): boolean => session.me !== null && passesEveryCheck(session.me.user);

/** Who the object rules (@shared/access/object-rules) ask about; null while signed out. */
export const actor = (): Actor | null => (session.me ? pageActor(session.me) : null);
export const isGuest = (): boolean => session.me?.user.role === 'guest';

/**
 * Whether the server said, when it served this page, that the browser has no session cookie
 * (api/ui-bundle/static.ts): then asking who is signed in would only log a 401. Known for the first load only.
 */
let knownSignedOut = document.documentElement.hasAttribute('data-signed-out');

/**
 * Reads the session; a 401 means signed out. When the service cannot be reached the last answer is
 * kept (the UI shows itself offline), so a network drop never signs anyone out.
 */
export async function refreshSession(): Promise<'signed-in' | 'signed-out' | 'unreachable'> {
  const me = knownSignedOut
    ? ({ ok: false, status: 401, error: '' } as const)
    : await call(api.GET('/api/session/me'));
  knownSignedOut = false;
  if (!me.ok && me.status === 0) return 'unreachable';
  session.me = me.ok ? me.value : null;
  session.needsSetup = false;
  if (!me.ok) {
    const setup = await call(api.GET('/api/session/needs-setup'));
    session.needsSetup = setup.ok && setup.value.needsSetup;
  }
  session.known = true;
  return session.me ? 'signed-in' : 'signed-out';
}

async function thenRefresh<T>(result: CallResult<T>): Promise<CallResult<T>> {
  if (result.ok) await refreshSession();
  return result;
}

export const login = async (username: string, password: string) =>
  thenRefresh(await call(api.POST('/api/session/login', { body: { username, password } })));

export const setupAdmin = async (username: string, password: string) =>
  thenRefresh(await call(api.POST('/api/session/setup', { body: { username, password } })));

export const enterAsGuest = async () => thenRefresh(await call(api.POST('/api/session/guest')));

export async function logout(): Promise<void> {
  await call(api.POST('/api/session/logout'));
  session.me = null;
  knownSignedOut = true;
  await refreshSession();
}
