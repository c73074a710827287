/**
 * Checks answers against the committed OpenAPI document (openapi/openapi.json), the one the typed
 * clients are generated from: an answer it does not describe is a bug in every client. For the
 * operation a request reached (method and path template), the status must be documented (or the
 * operation has a `default`), the content type must be one of that response's media types, a body-less
 * response must come without one, and a JSON body must validate against the response schema (JSON
 * Schema 2020-12, `$ref`s resolved to the document's components).
 *
 * Requests the document does not describe (the UI's pages, `/ws`, `/api/docs`, an unknown `/api` path)
 * are not checked. Only JSON bodies are read, from a clone; images and other bodies are left unread.
 */
import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

interface MediaTypeObject {
  schema?: object;
}
interface ResponseObject {
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, object> };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** Where the document's component schemas live once added to Ajv as a schema of their own. */
const COMPONENTS_ID = 'openapi-components';
const BODY_SNIPPET_CHARS = 400;

export const COMMITTED_DOCUMENT_PATH = new URL('../openapi/openapi.json', import.meta.url);

/** One path template of the document, split into segments (`{param}` matches any one segment). */
interface PathTemplate {
  template: string;
  segments: (string | undefined)[];
  /** Literal segments: the most specific template wins, as `/api/bot/settings` over `/api/bot/{id}`. */
  literals: number;
  operations: Map<string, OperationObject>;
}

export interface AnswerMismatch {
  /** `GET /api/bot/{id}`. */
  operation: string;
  status: number;
  problems: string[];
  /** The start of the body, when it was read. */
  body?: string;
}

export type AnswerVerdict = { described: false } | { described: true; mismatch: AnswerMismatch | undefined };

export function describeMismatch(m: AnswerMismatch): string {
  return [
    `${m.operation} answered ${m.status}, which openapi/openapi.json does not describe:`,
    ...m.problems.map((p) => `  - ${p}`),
    ...(m.body === undefined ? [] : [`  body: ${m.body}`]),
  ].join('\n');
}

export class AnswerValidator {
  private readonly templates: PathTemplate[];
  // Each test file compiles the schemas it meets anew, in the process that runs its app and bots too:
  // unoptimized code compiles in half the time, and the check of the schemas against the meta-schema
  // (most of the start-up) is left to answer-validator.test.ts, once.
  private readonly ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    validateSchema: false,
    code: { optimize: false },
  });
  /** By the schema's text: the many `{$ref: Error}` of the document are compiled once. */
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    // An annotation OpenAPI adds to JSON Schema; it constrains nothing.
    this.ajv.addKeyword('example');
    this.ajv.addSchema({
      $id: COMPONENTS_ID,
      $defs: withComponentRefs(document.components?.schemas ?? {}, ''),
    });
    this.templates = Object.entries(document.paths).map(([template, item]) => {
      const segments = template.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? undefined : s));
      const operations = new Map(
        Object.entries(item)
          .filter(([method]) => HTTP_METHODS.has(method))
          .map(([method, operation]) => [method.toUpperCase(), operation as OperationObject]),
      );
      return { template, segments, literals: segments.filter((s) => s !== undefined).length, operations };
    });
  }

  /** The documented operation a request reaches, or undefined when the document does not describe it. */
  operationFor(method: string, pathname: string): { name: string; operation: OperationObject } | undefined {
    const segments = pathname.split('/');
    let best: PathTemplate | undefined;
    for (const candidate of this.templates) {
      if (!candidate.operations.has(method) || candidate.segments.length !== segments.length) continue;
      const fits = candidate.segments.every((s, i) =>
        s === undefined ? segments[i] !== '' : s === segments[i],
      );
      if (fits && (!best || candidate.literals > best.literals)) best = candidate;
    }
    if (!best) return undefined;
    return { name: `${method} ${best.template}`, operation: best.operations.get(method)! };
  }

  /**
   * Whether the document describes the request `method pathname`, and if so how `response` breaks its
   * operation (undefined: it does not). `response` itself is never read.
   */
  async check(method: string, pathname: string, response: Response): Promise<AnswerVerdict> {
    const found = this.operationFor(method, pathname);
    if (!found) return { described: false };
    return { described: true, mismatch: await this.mismatchOf(found, response) };
  }

  private async mismatchOf(
    found: { name: string; operation: OperationObject },
    response: Response,
  ): Promise<AnswerMismatch | undefined> {
    const { status } = response;
    const mismatch = (problems: string[], body?: string): AnswerMismatch => ({
      operation: found.name,
      status,
      problems,
      ...(body === undefined ? {} : { body: body.slice(0, BODY_SNIPPET_CHARS) }),
    });
    const { responses } = found.operation;
    const documented = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (!documented) {
      const body = await readIfJson(response);
      return mismatch(
        [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`],
        body,
      );
    }
    const contentType = response.headers.get('content-type');
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    if (!documented.content) {
      // Judged by the body itself: @hono/node-server labels every answer without a type `text/plain`,
      // also a 204 that has no body at all.
      const text = response.body === null ? '' : await response.clone().text();
      return text === ''
        ? undefined
        : mismatch([`documents no body, but the answer has one (${mediaType ?? 'without a type'})`], text);
    }
    const mediaTypes = Object.keys(documented.content);
    const matched = mediaType && mediaTypes.find((m) => mediaTypeMatches(m, mediaType));
    if (!matched) {
      return mismatch([`content type ${contentType ?? '(none)'} is not one of ${mediaTypes.join(', ')}`]);
    }
    const schema = documented.content[matched]?.schema;
    if (!schema || !isJson(matched)) return undefined;
    const validate = this.validatorFor(schema);
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return mismatch(['the body is not JSON'], text);
    }
    if (validate(body)) return undefined;
    return mismatch((validate.errors ?? []).map(describeSchemaError), text);
  }

  private validatorFor(schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(withComponentRefs(schema, COMPONENTS_ID));
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

/** `schema` with its `#/components/schemas/X` references pointing at `<base>#/$defs/X`. */
function withComponentRefs<T extends object>(schema: T, base: string): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${base}#/$defs/`)) as T;
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  if (documented === '*/*' || documented === actual) return true;
  return documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1));
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

async function readIfJson(response: Response): Promise<string | undefined> {
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType && isJson(mediaType) ? response.clone().text() : undefined;
}

function describeSchemaError(error: ErrorObject): string {
  const params = error.keyword === 'additionalProperties' ? ` (${error.params.additionalProperty})` : '';
  const allowed = error.keyword === 'enum' ? ` (${JSON.stringify(error.params.allowedValues)})` : '';
  return `${error.instancePath || '(body)'} ${error.message ?? error.keyword}${params}${allowed}`;
}

let committed: AnswerValidator | undefined;

/** The validator of the committed document, built on first use. */
export function committedDocumentValidator(): AnswerValidator {
  committed ??= new AnswerValidator(
    JSON.parse(readFileSync(COMMITTED_DOCUMENT_PATH, 'utf8')) as OpenApiDocument,
  );
  return committed;
}
