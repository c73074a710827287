/**
 * Every route contract declares who may call it. The policy travels in the OpenAPI document as the
 * `x-policy` extension (and as a `security` requirement), and the api's authorization layer reads it
 * from the same value, so the document cannot disagree with what is enforced.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { RoutePolicy } from '../shared/access/route-access';
import { type ErrorStatus, errors, sharedErrorStatuses } from './errors';

export type PolicyRouteConfig = RouteConfig & { policy: RoutePolicy };

const describePolicy = (p: RoutePolicy): string => {
  const parts: string[] = [
    p.access === 'public' ? 'Public.' : p.access === 'admin' ? 'Admin only.' : 'Authenticated.',
  ];
  if (p.capability) parts.push(`Capability \`${p.capability}\`.`);
  if (p.botParam) parts.push('Bot access required.');
  if (p.nonGuest) parts.push('Guests refused.');
  if (p.guestPermission) parts.push(`Guests need \`${p.guestPermission}\`.`);
  if (p.sessionOnly) parts.push('Browser session only (API keys refused).');
  return parts.join(' ');
};

/**
 * The refusals the authorization layer (api/access/authorize.ts) answers under a policy, and the unknown
 * bot of a route that names one: documented from the policy, so no route can forget them.
 */
export function policyErrorStatuses(p: RoutePolicy): ErrorStatus[] {
  const statuses: ErrorStatus[] = [];
  if (p.access !== 'public') statuses.push(401);
  if (p.access === 'admin' || p.nonGuest || p.sessionOnly || p.capability || p.botParam) statuses.push(403);
  if (p.botParam) statuses.push(404);
  return statuses;
}

const SESSION_ONLY_SECURITY = [{ sessionCookie: [] }];
const ANY_CREDENTIAL_SECURITY = [{ sessionCookie: [] }, { bearerApiKey: [] }, { headerApiKey: [] }];

/**
 * `createRoute` plus the route's policy, recorded in the document, and the error responses the policy
 * and the shared middleware can answer (the route's own entries take precedence for their statuses).
 */
export function defineRoute<P extends string, R extends Omit<PolicyRouteConfig, 'path'> & { path: P }>(
  config: R,
) {
  const { policy, ...route } = config;
  // A route may name a further way in of its own (`/metrics`: the scraper's token) after the policy's.
  const security = [
    ...(policy.access === 'public'
      ? []
      : policy.sessionOnly
        ? SESSION_ONLY_SECURITY
        : ANY_CREDENTIAL_SECURITY),
    ...(route.security ?? []),
  ];
  const description = [route.description, `**Access:** ${describePolicy(policy)}`]
    .filter(Boolean)
    .join('\n\n');
  const responses = {
    ...errors(...new Set([...sharedErrorStatuses(route.method), ...policyErrorStatuses(policy)])),
    ...route.responses,
  };
  return createRoute({ ...route, responses, description, security, 'x-policy': policy } as Omit<
    R,
    'policy'
  > & {
    path: P;
    'x-policy': RoutePolicy;
  });
}

/** Reads the policy back from a route contract (used by the authorization layer and its tests). */
export function policyOf(route: { 'x-policy'?: RoutePolicy }): RoutePolicy | undefined {
  return route['x-policy'];
}
