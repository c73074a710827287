/**
 * Every JSON-body route answers bad input with 400 {error}, never 500: non-object JSON, unknown
 * fields, wrong types and over-long strings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../scripts/openapi-build';
import { insertBot, setupAdmin } from '../helpers/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  maxLength?: number;
  $ref?: string;
  anyOf?: JsonSchema[];
}
type Operation = { requestBody?: { content: Record<string, { schema: JsonSchema }> } };

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
const resolve = (s: JsonSchema): JsonSchema =>
  s.$ref ? document.components.schemas[s.$ref.split('/').pop()!]! : s;

const bodyRoutes = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) => {
    const json = op.requestBody?.content['application/json'];
    return json ? [{ method: method.toUpperCase(), path, schema: resolve(json.schema) }] : [];
  }),
);

/**
 * Routes whose body is raw bytes rather than JSON (the upload), with a request that is valid but for
 * the body's type: each must answer a JSON body with 4xx {error}, never 500.
 */
const RAW_BODY_ROUTES: Record<string, Record<string, string>> = {
  'POST /api/music/local/upload': { 'x-filename': 'song.mp3' },
};
const rawBodyRoutes = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op.requestBody && !op.requestBody.content['application/json'])
    .map(([method]) => `${method.toUpperCase()} ${path}`),
);

/** A value of a type the property does not accept. */
function wrongTypeFor(schema: JsonSchema): unknown {
  const s = resolve(schema);
  const types = s.anyOf ? s.anyOf.flatMap((a) => resolve(a).type) : [s.type].flat();
  return types.includes('object') ? 12345 : { not: 'this' };
}

describe('bad input on every JSON body route', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let botId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    botId = await insertBot(t);
    // A browser session: it reaches session-only routes too.
    headers = { cookie: admin.jar.header()!, 'content-type': 'application/json' };
  });
  afterAll(() => t.close());

  const send = (method: string, path: string, body: string) => {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'botId' || name === 'id' ? botId : 'x',
    );
    return t.fetch(new Request(`${TEST_ORIGIN}${url}`, { method, headers, body }));
  };

  it('has routes to check', () => {
    expect(bodyRoutes.length).toBeGreaterThan(5);
  });

  it.each(bodyRoutes)('$method $path', async ({ method, path, schema }) => {
    const cases: string[] = [
      '[]',
      '"text"',
      '42',
      'null',
      'true',
      JSON.stringify({ definitelyNotAField: 1 }),
    ];
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      cases.push(JSON.stringify({ [name]: wrongTypeFor(property) }));
      const p = resolve(property);
      if (p.maxLength) cases.push(JSON.stringify({ [name]: 'x'.repeat(p.maxLength + 1) }));
    }
    cases.push(JSON.stringify({ text: 'y'.repeat(100_000) }));
    for (const body of cases) {
      const res = await send(method, path, body);
      const json = (await res.json()) as { error?: unknown };
      expect({ body: body.slice(0, 60), status: res.status }).toEqual({
        body: body.slice(0, 60),
        status: 400,
      });
      expect(typeof json.error).toBe('string');
    }
  });

  it('knows every raw-body route', () => {
    expect(rawBodyRoutes.sort()).toEqual(Object.keys(RAW_BODY_ROUTES).sort());
  });

  it.each(rawBodyRoutes)('%s', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    for (const body of ['{}', '[]', JSON.stringify({ text: 'y'.repeat(100_000) })]) {
      const res = await t.fetch(
        new Request(`${TEST_ORIGIN}${path}`, {
          method,
          headers: { ...headers, ...RAW_BODY_ROUTES[route] },
          body,
        }),
      );
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof ((await res.json()) as { error?: unknown }).error).toBe('string');
    }
  });
});
