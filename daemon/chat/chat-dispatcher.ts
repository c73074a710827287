/**
 * Turns one chat line into a reply: parse, check the admin groups for admin-type commands, run the
 * command through the REST client acting for the sender. Lines that are not commands get no reply.
 */
import type { ApiClient } from '../../openapi/client';
import { receipts } from '../../shared/receipts';
import { CHAT_COMMANDS, type ChannelRef, type ChatChannels, type UndoSlot } from './chat-commands';
import { DEFAULT_CHAT_PREFIX, parseChatCommand } from './parse-command';

export interface ChatSender {
  nickname: string;
  /** The sender's voice-server identity: votes count by it, not by the nickname. */
  uid: string;
  serverGroups: readonly number[];
  /** The channel the sender is in, when the bot's connection sees them (`!come` goes there). */
  channel?: ChannelRef | undefined;
}

export interface ChatDispatcherOptions {
  botId: string;
  /** A REST client acting for this chat user (their nickname becomes `requestedBy`). */
  clientFor(nickname: string): ApiClient;
  /** Casts the sender's vote to skip with the bot itself (no REST call: it counts the bot's channel). */
  voteSkip(sender: ChatSender): Promise<string>;
  /** The bot's channel and a way to move it (`!where`, `!come`). */
  channels: ChatChannels;
  /** The current `adminGroups` setting. */
  adminGroups(): readonly number[];
  prefix?: string;
}

export class ChatDispatcher {
  private readonly prefix: string;
  private readonly undo: UndoSlot = { token: undefined };

  constructor(private readonly options: ChatDispatcherOptions) {
    this.prefix = options.prefix ?? DEFAULT_CHAT_PREFIX;
  }

  async handle(line: string, sender: ChatSender): Promise<string | undefined> {
    const command = parseChatCommand(line, this.prefix);
    if (!command) return undefined;
    const spec = CHAT_COMMANDS[command.name];
    if (!spec) return receipts.chatUnknownCommand(command.name, this.prefix);
    const adminGroups = this.options.adminGroups();
    if (spec.adminOnly && adminGroups.length && !sender.serverGroups.some((g) => adminGroups.includes(g))) {
      return receipts.chatAdminOnly();
    }
    return spec.run({
      api: this.options.clientFor(sender.nickname),
      botId: this.options.botId,
      command,
      prefix: this.prefix,
      voteSkip: () => this.options.voteSkip(sender),
      senderChannel: sender.channel,
      channels: this.options.channels,
      undo: this.undo,
    });
  }
}
