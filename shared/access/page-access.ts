/**
 * The browser UI's question about the access rules: may the signed-in account (its `/api/session/me`
 * answer) call this route? Answered by the api's own evaluator (route-access.ts) over the policies of
 * the OpenAPI document built into the bundle, so a control is shown exactly when the call would pass.
 *
 * Pure data and functions: the web bundle imports it (no Node modules).
 */
import type { Capability, GuestPermission, PrincipalRole } from '../domain/constants';
import type { Actor } from './object-rules';
import { type Caller, type RoutePolicy, refusalOf } from './route-access';

/** `METHOD /api/path` (the document's `{param}` spelling) → the route's policy. */
export type RoutePolicies = Readonly<Record<string, RoutePolicy>>;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The parts of `GET /api/session/me` the rules read. */
export interface SignedIn {
  user: { role: PrincipalRole };
  capabilities: readonly Capability[];
  bots: 'all' | readonly string[];
  guestPermissions?: Partial<Record<GuestPermission, boolean>>;
}

/** The signed-in account as the object rules (object-rules.ts) see it. */
export const pageActor = (me: { user: { id: string; role: PrincipalRole } }): Actor => ({
  userId: me.user.id,
  role: me.user.role,
});

/** The page calls with its session cookie, or with nothing while signed out. */
export const pageCaller = (me: SignedIn | null): Caller =>
  me ? { credential: 'session', subject: { ...me, role: me.user.role } } : {};

/** Whether the page may call `method path` (for the bot `botId` where the route names one). */
export function pageAllows(
  policies: RoutePolicies,
  me: SignedIn | null,
  method: Method,
  path: string,
  botId?: string,
): boolean {
  const policy = policies[`${method} ${path}`];
  // A route this build of the api does not have is never offered.
  if (!policy) return false;
  return refusalOf(policy, pageCaller(me), botId) === undefined;
}
