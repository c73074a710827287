/**
 * The answer validator of the test helpers (testkit/openapi-answers.ts, checked-answers.ts) must
 * catch what it is there for, or every suite would pass whatever the app answers: a status, a field or
 * a content type the document does not describe.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { AnswerLedger, checkingAnswers, fileLedger } from '../../testkit/checked-answers';
import {
  AnswerValidator,
  COMMITTED_DOCUMENT_PATH,
  committedDocumentValidator,
  type OpenApiDocument,
} from '../../testkit/openapi-answers';

const error = {
  description: 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};
const document: OpenApiDocument = {
  components: {
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      Thing: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          count: { type: 'integer', minimum: 0 },
          owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
          seenAt: { type: 'string', format: 'date-time' },
        },
        required: ['id', 'count', 'owner'],
        additionalProperties: false,
      },
      Owner: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
  paths: {
    '/api/thing/{id}': {
      parameters: [],
      get: {
        responses: {
          200: {
            description: 'A thing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          404: error,
        },
      },
      delete: { responses: { 202: { description: 'Deletion queued' }, 204: { description: 'Deleted' } } },
    },
    '/api/thing/special': {
      get: {
        responses: {
          200: { description: 'Special', content: { 'application/json': { schema: { type: 'string' } } } },
        },
      },
    },
    '/api/thing/{id}/picture': {
      get: {
        responses: {
          200: {
            description: 'Bytes',
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
  },
};
const validator = new AnswerValidator(document);
const thing = { id: 't1', count: 3, owner: { name: 'ann' }, seenAt: '2026-11-22T06:30:00.000Z' };

async function problemsOf(method: string, path: string, response: Response): Promise<string[] | undefined> {
  const verdict = await validator.check(method, path, response);
  if (!verdict.described) throw new Error(`${method} ${path} is not described`);
  return verdict.mismatch?.problems;
}

describe('the answer validator', () => {
  it('passes answers the document describes, references resolved', async () => {
    expect(await problemsOf('GET', '/api/thing/t1', Response.json(thing))).toBeUndefined();
    expect(
      await problemsOf('GET', '/api/thing/t1', Response.json({ ...thing, owner: null })),
    ).toBeUndefined();
    expect(
      await problemsOf('GET', '/api/thing/x', Response.json({ error: 'no such thing' }, { status: 404 })),
    ).toBeUndefined();
    expect(await problemsOf('DELETE', '/api/thing/t1', new Response(null, { status: 204 }))).toBeUndefined();
    // As @hono/node-server sends a 204: typed, without a body.
    const typed204 = new Response(null, {
      status: 204,
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
    });
    expect(await problemsOf('DELETE', '/api/thing/t1', typed204)).toBeUndefined();
  });

  it('catches a status the operation does not document', async () => {
    const problems = await problemsOf(
      'GET',
      '/api/thing/t1',
      Response.json({ error: 'no' }, { status: 403 }),
    );
    expect(problems).toEqual(['status 403 is not documented (documented: 200, 404)']);
  });

  it('catches a field of the wrong type, a missing one, an extra one and a malformed format, naming each', async () => {
    const wrongType = await problemsOf('GET', '/api/thing/t1', Response.json({ ...thing, count: '3' }));
    expect(wrongType).toEqual(['/count must be integer']);
    const { owner: _, ...withoutOwner } = thing;
    expect(await problemsOf('GET', '/api/thing/t1', Response.json(withoutOwner))).toEqual([
      "(body) must have required property 'owner'",
    ]);
    expect(await problemsOf('GET', '/api/thing/t1', Response.json({ ...thing, secret: 'x' }))).toEqual([
      '(body) must NOT have additional properties (secret)',
    ]);
    expect(
      await problemsOf('GET', '/api/thing/t1', Response.json({ ...thing, owner: { name: 7 } })),
    ).toContain('/owner/name must be string');
    expect(
      await problemsOf('GET', '/api/thing/t1', Response.json({ ...thing, seenAt: 'yesterday' })),
    ).toEqual(['/seenAt must match format "date-time"']);
  });

  it('catches a content type the response does not document, and a body where none is documented', async () => {
    const html = new Response('<p>hi</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(await problemsOf('GET', '/api/thing/t1', html)).toEqual([
      'content type text/html; charset=utf-8 is not one of application/json',
    ]);
    expect(await problemsOf('GET', '/api/thing/t1', new Response(JSON.stringify(thing)))).toEqual([
      'content type text/plain;charset=UTF-8 is not one of application/json',
    ]);
    expect(await problemsOf('DELETE', '/api/thing/t1', Response.json({ ok: true }, { status: 202 }))).toEqual(
      ['documents no body, but the answer has one (application/json)'],
    );
  });

  it('checks an image by its type only and leaves its body unread', async () => {
    const png = new Response(new Uint8Array([0x89, 0x50]), { headers: { 'content-type': 'image/png' } });
    expect(await problemsOf('GET', '/api/thing/t1/picture', png)).toBeUndefined();
    expect(png.bodyUsed).toBe(false);
    const jpeg = new Response(new Uint8Array([0xff, 0xd8]), { headers: { 'content-type': 'image/jpeg' } });
    expect(await problemsOf('GET', '/api/thing/t1/picture', jpeg)).toEqual([
      'content type image/jpeg is not one of image/png',
    ]);
  });

  it('leaves a JSON body readable by the caller', async () => {
    const response = Response.json(thing);
    await problemsOf('GET', '/api/thing/t1', response);
    expect(await response.json()).toEqual(thing);
  });

  it('takes the most specific path template and leaves undescribed requests alone', async () => {
    expect(validator.operationFor('GET', '/api/thing/special')?.name).toBe('GET /api/thing/special');
    expect(validator.operationFor('GET', '/api/thing/other')?.name).toBe('GET /api/thing/{id}');
    // A method the literal path lacks is answered by the templated one, as the router does.
    expect(validator.operationFor('DELETE', '/api/thing/special')?.name).toBe('DELETE /api/thing/{id}');
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/ws'],
      ['GET', '/api/docs'],
      ['GET', '/api/thing'],
      ['GET', '/api/thing/'],
      ['POST', '/api/thing/t1'],
      ['GET', '/api/thing/t1/picture/more'],
    ] as const) {
      expect(await validator.check(method, path, new Response('x', { status: 404 }))).toEqual({
        described: false,
      });
    }
  });
});

describe('the committed document', () => {
  it('has valid JSON Schema 2020-12, compiled in strict mode, for every JSON answer of every operation', async () => {
    const committed = JSON.parse(readFileSync(COMMITTED_DOCUMENT_PATH, 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
      components: { schemas: object };
    };
    // The validator leaves this out on every start (openapi-answers.ts).
    const meta = new Ajv2020({ strict: true });
    meta.addKeyword('example');
    expect(meta.validateSchema({ $defs: committed.components.schemas }), meta.errorsText()).toBe(true);
    const validator = committedDocumentValidator();
    let checked = 0;
    for (const [template, item] of Object.entries(committed.paths)) {
      const path = template.replace(/\{\w+\}/g, 'x');
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const json = (response.content as Record<string, { schema?: object }> | undefined)?.[
            'application/json'
          ];
          if (!json?.schema) continue;
          expect(meta.validateSchema(json.schema), meta.errorsText()).toBe(true);
          // `undefined` is no JSON value: the schema is compiled, then the body refused.
          const verdict = await validator.check(
            method.toUpperCase(),
            path,
            new Response('undefined', {
              status: Number(status),
              headers: { 'content-type': 'application/json' },
            }),
          );
          expect(verdict).toMatchObject({
            described: true,
            mismatch: { problems: ['the body is not JSON'] },
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('checked answers of the test helpers', () => {
  it('throw on an answer that breaks the committed document, count every checked one, and skip the rest', async () => {
    // A ledger of its own: these mismatches are made on purpose and stay out of the hardening table.
    const ledger = new AnswerLedger();
    const settings = new Request('http://bot.test/api/bot/settings');
    const broken = checkingAnswers(async () => Response.json({ defaultPlatform: 'nowhere' }), { ledger });
    await expect(broken(settings)).rejects.toThrow(
      /^GET \/api\/bot\/settings answered 200, which openapi\/openapi.json does not describe:\n {2}- /,
    );
    const [mismatch, ...more] = ledger.takeUnreported();
    expect(more).toEqual([]);
    expect(mismatch?.problems.join('\n')).toMatch(
      /^\/defaultPlatform must be equal to one of the allowed values/m,
    );
    expect(mismatch?.body).toBe('{"defaultPlatform":"nowhere"}');

    const health = checkingAnswers(async () => Response.json({ status: 'ok', version: 'test' }), { ledger });
    expect((await health(new Request('http://bot.test/api/health'))).status).toBe(200);
    const page = checkingAnswers(
      async () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
      { ledger },
    );
    await page(new Request('http://bot.test/settings'));

    // BASE_PATH is taken off as the proxy in front of the service does.
    const underBase = checkingAnswers(async () => Response.json({ error: 'x' }, { status: 418 }), {
      basePath: '/music-bot',
      ledger,
    });
    await expect(underBase(new Request('http://bot.test/music-bot/api/health'))).rejects.toThrow(
      /GET \/api\/health answered 418/,
    );

    expect({ validated: ledger.validated, mismatches: ledger.mismatches }).toEqual({
      validated: 3,
      mismatches: 2,
    });
    expect(ledger.takeUnreported()).toHaveLength(1);
    expect(fileLedger).toMatchObject({ validated: 0, mismatches: 0 });
  });
});
