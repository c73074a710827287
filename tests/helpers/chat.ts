/** A chat dispatcher for a test app: commands reach the app through the typed client as the chat service. */
import { ACT_FOR_HEADER, SERVICE_TOKEN_HEADER } from '../../api/auth/service-principal';
import { ChatDispatcher } from '../../daemon/chat/chat-dispatcher';
import { createApiClient } from '../../openapi/client';
import { TEST_ORIGIN, type TestApp } from './test-app';

export function chatFor(t: TestApp, botId: string, adminGroups: number[] = []): ChatDispatcher {
  return new ChatDispatcher({
    botId,
    adminGroups: () => adminGroups,
    clientFor: (nickname) =>
      createApiClient({
        baseUrl: TEST_ORIGIN,
        headers: {
          [SERVICE_TOKEN_HEADER]: t.config.serviceToken,
          [ACT_FOR_HEADER]: encodeURIComponent(nickname),
        },
        fetch: (request) => t.fetch(request),
      }),
  });
}
