/**
 * The document-level parts of the OpenAPI description: info, servers and security schemes. Routes
 * contribute their own paths; `api/app.ts` assembles the whole.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import packageJson from '../package.json' with { type: 'json' };

export const documentConfig: Parameters<OpenAPIHono['getOpenAPI31Document']>[0] = {
  openapi: '3.1.0',
  info: {
    title: 'TeamSpeak 3 Music Bot API',
    version: packageJson.version,
    description: [
      'REST API of a self-hosted music bot for TeamSpeak 3 voice servers.',
      '',
      'Every error is `{"error": "…"}`. Authenticate with the browser session cookie, or with an API key',
      '(`Authorization: Bearer tsmb_…` or `X-API-Key: tsmb_…`) created under Settings → API keys.',
      'Each operation states its access rule; the machine-readable form is the `x-policy` extension.',
      'A request body that is not JSON, or sent without `Content-Type: application/json`, is a 400.',
      'When no daemon owns a bot, or the message bus is down, bot and player calls answer 503.',
      'A path or query that is not valid percent-encoded UTF-8, or text holding NUL or an unpaired',
      'surrogate, is a 400; a body over 1 MiB is a 413 (uploads have their own limit). A database that is',
      'busy answers 503 and one that is full 507; nothing is changed by either.',
    ].join('\n'),
  },
  servers: [{ url: '/' }],
};

export function registerSecuritySchemes<E extends Env>(app: OpenAPIHono<E>): void {
  const registry = app.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'tsmb_session',
    description: 'Browser session from POST /api/session/login (guests: cookie `tsmb_guest`).',
  });
  registry.registerComponent('securitySchemes', 'bearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key as a bearer token.',
  });
  registry.registerComponent('securitySchemes', 'headerApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'API key in a header.',
  });
  registry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN of the service, for GET /metrics only.',
  });
}
