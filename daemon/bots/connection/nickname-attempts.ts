/**
 * The nicknames a bot tries when the server says its own is taken (another client has it: a second bot
 * configured alike, a person, or the bot's own ghost from before a network break that the server has
 * not timed out yet). A refused nickname is not a failed start: the bot joins as `Name (2)`, `Name (3)` …
 * and its status says so. The suffix is set apart by a space and brackets so it never reads as another
 * bot's look-alike nickname (`MusicBot2`).
 */
import { NICKNAME_MAX } from '../../../shared/domain/bot-rules';

/** Attempts in all, the configured nickname first; past them the refusal is the start's answer. */
export const NICKNAME_ATTEMPTS = 10;

/** The nickname of attempt `attempt` (0: the configured one), cut to fit TeamSpeak's limit with its suffix. */
export function nicknameForAttempt(nickname: string, attempt: number): string {
  if (attempt === 0) return nickname;
  const suffix = ` (${attempt + 1})`;
  const room = NICKNAME_MAX - suffix.length;
  const base = [...nickname];
  return `${base.length <= room ? nickname : base.slice(0, room).join('').trimEnd()}${suffix}`;
}
