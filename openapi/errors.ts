/**
 * The one error shape of the API and the error responses routes spread into their contracts.
 */
import { z } from '@hono/zod-openapi';
import { PHRASE_CODES } from '../shared/i18n/phrases';

export const PhraseCodeSchema = z.enum(PHRASE_CODES).openapi('PhraseCode', {
  description:
    'A stable name of the sentence, whatever the language: a client may word it itself from `params`. ' +
    'Generic codes of a status (`badRequest`, `notFound`, …) carry the English sentence as `detail`.',
});
export const PhraseParamsSchema = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .openapi('PhraseParams', {
    description: 'What the sentence is about, by placeholder name',
    example: { volume: 54 },
  });
const PhraseSchema = z.object({ code: PhraseCodeSchema, params: PhraseParamsSchema }).openapi('Phrase');

/**
 * The receipt fields of an answer: `message` worded in the language of `Accept-Language` (en, zh; else
 * the server's LOCALE), and the phrase it was worded from.
 */
export const receiptFields = {
  message: z.string().openapi({ example: 'Volume set to 54.' }),
  code: PhraseCodeSchema,
  params: PhraseParamsSchema,
  more: z
    .array(PhraseSchema)
    .optional()
    .openapi({ description: 'The sentences after the first, when the call said several' }),
};

export const ErrorSchema = z
  .object({
    error: z.string().openapi({
      description: "Worded in the language of `Accept-Language` (en, zh; else the server's LOCALE)",
      example: 'volume: Too big: expected number to be <=100',
    }),
    code: PhraseCodeSchema,
    params: PhraseParamsSchema,
  })
  .openapi('Error');

const ERROR_DESCRIPTIONS = {
  400: 'Missing or malformed parameter',
  401: 'Not authenticated, or invalid API key',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'The request body is larger than 1 MiB',
  429: 'Too many attempts',
  500: 'Internal error (a defect; logged with the request id)',
  501: 'Not supported by this source',
  502: 'The music platform could not be reached or refused the request',
  503: 'Service unavailable (no daemon answered, the message bus is down, or the database is busy)',
  507: 'The database is out of space; nothing was changed',
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const errorContent = { 'application/json': { schema: ErrorSchema } };

/**
 * Error responses for a route, e.g. `...errors(409, 502)`. Those of its access policy and of the shared
 * middleware are added by `defineRoute` (policy.ts, `sharedErrorStatuses`).
 */
export function errors(...statuses: ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: ERROR_DESCRIPTIONS[status], content: errorContent }]),
  );
}

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  content: { 'application/json': { schema } },
  ...(description ? { description } : {}),
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const STATE_CHANGING_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * What the app's shared layers (api/app.ts, api/errors.ts) can answer on any route, whatever its
 * handler does: a path or query that is not well-formed (400) and a defect (500); on a method that
 * changes state also a cross-site refusal (403), a body over the size limit (413) and a database that
 * is busy (503) or full (507).
 */
export function sharedErrorStatuses(method: string): ErrorStatus[] {
  return STATE_CHANGING_METHODS.has(method.toLowerCase()) ? [400, 403, 413, 500, 503, 507] : [400, 500];
}
