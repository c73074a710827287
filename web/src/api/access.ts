/**
 * What the signed-in principal may do, decided by the api's own access rules (shared/access) over the
 * policies of the OpenAPI document built into the bundle. Controls ask `allowed(...)` and are hidden or
 * disabled instead of answering 403.
 */

import policies from 'virtual:route-policies';
import { type Method, pageAllows, type SignedIn } from '@shared/access/page-access';

export type { Method };

/** Whether the API built into this bundle has the route at all (routes still to come do not). */
export const routeExists = (method: Method, path: string): boolean => `${method} ${path}` in policies;

export const allowed = (me: SignedIn | null, method: Method, path: string, botId?: string): boolean =>
  pageAllows(policies, me, method, path, botId);
