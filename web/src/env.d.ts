/// <reference types="vite/client" />

declare module 'virtual:route-policies' {
  /** `METHOD /api/path` → the access policy the api enforces (see web/build/route-policies.ts). */
  const policies: Record<string, import('@openapi/policy').RoutePolicy>;
  export default policies;
}
