/**
 * SPEC routes that are not in the committed OpenAPI document yet (the platform logins, `/api/auth`),
 * typed by hand in the generated client's shape and called through the same openapi-fetch client. The
 * UI offers them only when the document built into the bundle lists their policy (`routeExists`), so
 * a route appears in the UI the build after it lands. When `make client` has them, this file goes.
 */
import type { Schemas } from '@api/index';
import createClient from 'openapi-fetch';
import { apiBaseUrl } from '../base';

type Platform = Schemas['Platform'];
type Json<T> = { content: { 'application/json': T } };
type ErrorAnswer = Json<{ error: string }>;
type Answers<T> = { 200: Json<T>; 400: ErrorAnswer; 401: ErrorAnswer; 403: ErrorAnswer; 404: ErrorAnswer };

export interface PendingPaths {
  '/api/auth/status': {
    get: {
      parameters: { query: { platform: Platform } };
      responses: Answers<{ platform: Platform; loggedIn: boolean; nickname?: string }>;
    };
  };
}

export const pendingApi = createClient<PendingPaths>({ baseUrl: apiBaseUrl });
