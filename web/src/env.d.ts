/// <reference types="vite/client" />

declare module 'virtual:route-policies' {
  /** `METHOD /api/path` → the access policy the api enforces (see web/build/route-policies.ts). */
  const policies: import('@shared/access/page-access').RoutePolicies;
  export default policies;
}
