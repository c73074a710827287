/**
 * Vite plugin: the virtual module `virtual:route-policies` holds the access policy (`x-policy`) of every
 * route in the committed OpenAPI document, keyed `METHOD /path`. The UI decides which controls to show
 * from the very rules the api enforces, without shipping the 200 kB document.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import type { RoutePolicies } from '../../shared/access/page-access';
import type { RoutePolicy } from '../../shared/access/route-access';

const MODULE_ID = 'virtual:route-policies';
const RESOLVED_ID = `\0${MODULE_ID}`;

export interface OpenApiDocument {
  paths: Record<string, Record<string, { 'x-policy'?: RoutePolicy }>>;
}

/** The policy of every operation of the document, keyed `METHOD /path` as the page asks for it. */
export function routePoliciesOf(document: OpenApiDocument): RoutePolicies {
  const policies: Record<string, RoutePolicy> = {};
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const policy = operation['x-policy'];
      if (policy) policies[`${method.toUpperCase()} ${path}`] = policy;
    }
  }
  return policies;
}

export function routePolicies(documentPath: string): Plugin {
  return {
    name: 'route-policies',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      this.addWatchFile(documentPath);
      const document = JSON.parse(readFileSync(documentPath, 'utf8')) as OpenApiDocument;
      return `export default ${JSON.stringify(routePoliciesOf(document))};`;
    },
  };
}
