/**
 * How a daemon reaches the REST API for chat commands: as the chat service (shared token), acting for
 * a voice-server nickname. In one process the client's fetch is the app's own (no socket); apart, it
 * calls API_URL.
 */
import { type ApiClient, createApiClient } from '../../openapi/client';
import { ACT_FOR_HEADER, SERVICE_TOKEN_HEADER } from '../../shared/service-headers';

export type ChatApiFactory = (nickname: string) => ApiClient;

export function chatApiFactory(options: {
  baseUrl: string;
  serviceToken: string;
  fetch?: (request: Request) => Promise<Response>;
}): ChatApiFactory {
  return (nickname) =>
    createApiClient({
      baseUrl: options.baseUrl,
      headers: {
        [SERVICE_TOKEN_HEADER]: options.serviceToken,
        [ACT_FOR_HEADER]: encodeURIComponent(nickname),
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
}
