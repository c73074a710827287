/**
 * What the signed-in principal may do, decided by the same rules as the api's authorization layer
 * (api/auth/authorize.ts) over the policies of the OpenAPI document built into the bundle. Controls ask
 * `allowed(...)` and are hidden or disabled instead of answering 403.
 */

import policies from 'virtual:route-policies';
import type { Schemas } from '@api/index';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Whether the API built into this bundle has the route at all (routes still to come do not). */
export const routeExists = (method: Method, path: string): boolean => `${method} ${path}` in policies;

export function allowed(me: Schemas['Me'] | null, method: Method, path: string, botId?: string): boolean {
  const policy = policies[`${method} ${path}`];
  if (!policy) return false;
  if (policy.access === 'public') return true;
  if (!me) return false;
  const { role } = me.user;
  if (role === 'guest') {
    if (policy.nonGuest || policy.access === 'admin') return false;
    const flag = policy.guestPermission;
    if (policy.capability && !(flag && me.guestPermissions?.[flag])) return false;
  } else {
    if (policy.access === 'admin' && role !== 'admin') return false;
    if (policy.capability && role !== 'admin' && !me.capabilities.includes(policy.capability)) return false;
  }
  if (policy.botParam && botId !== undefined && role !== 'admin') {
    return me.bots === 'all' || me.bots.includes(botId);
  }
  return true;
}
