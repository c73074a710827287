/** A chat dispatcher for a test app: commands reach the app through the typed client as the chat service. */
import { chatApiFactory } from '../../daemon/chat/chat-api';
import { ChatDispatcher } from '../../daemon/chat/chat-dispatcher';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

export function chatFor(t: TestApp, botId: string, adminGroups: number[] = []): ChatDispatcher {
  return new ChatDispatcher({
    botId,
    adminGroups: () => adminGroups,
    // Votes count the bot's channel, which only a connected bot has (tests/e2e/vote-skip.test.ts).
    voteSkip: async () => {
      throw new Error('a chat dispatcher without a bot cannot count votes');
    },
    // The channels are the connection's (tests/e2e/come-where.test.ts).
    channels: {
      current: () => undefined,
      moveTo: async () => {
        throw new Error('a chat dispatcher without a bot has no channel');
      },
    },
    clientFor: chatApiFactory({
      baseUrl: TEST_ORIGIN,
      serviceToken: t.config.serviceToken,
      fetch: (r) => t.fetch(r),
    }),
  });
}
