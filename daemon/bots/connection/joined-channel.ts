/**
 * Which channel the bot is in, and whether the channel it was configured to join exists: a TS3 server
 * puts a client whose default channel it does not have into its own default channel without a word, so
 * the bot says so itself (issue 22, defect 11).
 */
import type { JoinedChannel } from '../../../shared/domain/schemas';
import type { Book } from '../../ts3/book';

/** The channel a bot asks to join: `channelId` wins over `defaultChannel` (a name or a `Parent/Child` path). */
export function configuredChannel(config: {
  channelId: string | null;
  defaultChannel: string | null;
}): number | string | undefined {
  const id = config.channelId && /^\d+$/.test(config.channelId) ? Number(config.channelId) : undefined;
  return id ?? (config.defaultChannel || undefined);
}

/** The channel `channelId` as the client's book knows it, naming `configured` when the server has no such channel. */
export function joinedChannel(
  book: Book,
  channelId: number,
  configured: number | string | undefined,
): JoinedChannel | undefined {
  const channel = book.channels.get(channelId);
  if (!channel) return undefined;
  const joined: JoinedChannel = { id: channel.id, name: channel.name };
  if (configured !== undefined && !book.findChannel(configured)) joined.missing = String(configured);
  return joined;
}
