/**
 * Parses a chat line into a command: `!play -q some song` → name `play`, the platform whose facts name
 * the flag `-q`, text `some song`. Flags are standalone tokens anywhere in the line (DECISIONS.md "Chat
 * commands"). `!play <address>` and `!add <address>` without a flag play the address itself, on the
 * platform whose facts say it plays addresses. The parser names no platform: the facts choose.
 */
import type { Platform } from '../../shared/domain/constants';
import { ADDRESS_PLATFORM, PLATFORM_FLAGS } from '../../shared/domain/platforms';
import { streamAddress } from '../../shared/sources/stream/stream-address';

export const DEFAULT_CHAT_PREFIX = '!';

/** The commands whose text may be an address to play as it is. */
const ADDRESS_COMMANDS = new Set(['play', 'add', 'playnext']);

/** `load -a` appends instead of replacing. */
const APPEND_FLAG = '-a';

export interface ChatCommand {
  name: string;
  platform: Platform | undefined;
  append: boolean;
  /** The words after the command, flags removed. */
  args: string[];
  /** `args` joined: the free text of `play`, `search`, `save`. */
  text: string;
}

export function parseChatCommand(line: string, prefix = DEFAULT_CHAT_PREFIX): ChatCommand | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith(prefix)) return undefined;
  const [head, ...words] = trimmed.slice(prefix.length).split(/\s+/);
  const name = head?.toLowerCase();
  if (!name) return undefined;
  let platform: Platform | undefined;
  let append = false;
  const args: string[] = [];
  for (const word of words.map(withoutLinkTags)) {
    const flag = PLATFORM_FLAGS[word];
    if (flag) platform = flag;
    else if (word === APPEND_FLAG) append = true;
    else args.push(word);
  }
  const text = args.join(' ');
  if (!platform && ADDRESS_COMMANDS.has(name) && streamAddress(text)) platform = ADDRESS_PLATFORM;
  return { name, platform, append, args, text };
}

/** TeamSpeak clients send a typed address wrapped as `[URL]…[/URL]` (or `[URL=…]…[/URL]`). */
function withoutLinkTags(word: string): string {
  return word.replace(/^\[URL(=[^\]]*)?\]/i, '').replace(/\[\/URL\]$/i, '');
}
