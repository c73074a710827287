/**
 * The one error shape of the API and the error responses routes spread into their contracts.
 */
import { z } from '@hono/zod-openapi';

export const ErrorSchema = z
  .object({ error: z.string().openapi({ example: 'volume must be a number from 0 to 100' }) })
  .openapi('Error');

const ERROR_DESCRIPTIONS = {
  400: 'Missing or malformed parameter',
  401: 'Not authenticated, or invalid API key',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  429: 'Too many attempts',
  500: 'Internal error',
  501: 'Not supported by this source',
  502: 'The music platform could not be reached or refused the request',
  503: 'Service unavailable (no daemon answered, or the message bus is down)',
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const errorContent = { 'application/json': { schema: ErrorSchema } };

/** Error responses for a route, e.g. `...errors(400, 404)`. 401, 403 and 503 are added by `authErrors`. */
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
