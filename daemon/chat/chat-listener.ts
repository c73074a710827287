/**
 * Listens to one connection's text chat and answers commands where they were asked: in the channel
 * for channel messages, privately for private ones (and for server chat, to keep it quiet).
 */
import type { Logger } from '../../shared/logger';
import { type TextMessage, TextTarget, type Ts3Client } from '../ts3';
import type { ChannelRef } from './chat-commands';
import type { ChatDispatcher } from './chat-dispatcher';

/** What the listener needs of a voice client. */
export type ChatClient = Pick<
  Ts3Client,
  'on' | 'off' | 'sendChannelText' | 'sendPrivateText' | 'serverGroupsOf' | 'book'
>;

export function listenToChat(client: ChatClient, dispatcher: ChatDispatcher, log: Logger): () => void {
  const onText = async (message: TextMessage) => {
    try {
      const reply = await dispatcher.handle(message.message, {
        nickname: message.invokerName,
        uid: message.invokerUid,
        serverGroups: client.serverGroupsOf(message.invokerId),
        channel: channelOf(client, message.invokerId),
      });
      if (reply === undefined) return;
      if (message.mode === TextTarget.Channel) await client.sendChannelText(reply);
      else await client.sendPrivateText(message.invokerId, reply);
    } catch (error) {
      log.warn({ err: error, from: message.invokerName }, 'a chat command failed');
    }
  };
  const listener = (message: TextMessage) => void onText(message);
  client.on('textMessage', listener);
  return () => client.off('textMessage', listener);
}

/** The channel a client is in, as this connection's book has it. */
function channelOf(client: ChatClient, clientId: number): ChannelRef | undefined {
  const channelId = client.book.clients.get(clientId)?.channelId;
  const channel = channelId === undefined ? undefined : client.book.channels.get(channelId);
  return channel && { id: channel.id, name: channel.name };
}
