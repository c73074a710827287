/**
 * What the lease bucket holds, one key per bot and one per daemon, and how values are read:
 *   - `bot.<botId>`: the bot's lease `{owner, claim, active}`; `owner: null` marks a lease handed over
 *     by a daemon that stopped gracefully, claimable at once.
 *   - `daemon.<daemonId>`: a daemon's heartbeat, so a daemon that owns no bot yet still counts when
 *     bots are shared out.
 * Values are parsed with zod like every outside input; a value that does not parse counts as a free
 * lease, so junk in the bucket never blocks a bot.
 */
import { z } from 'zod';

export const BotLeaseSchema = z.object({
  /** The daemon running the bot; null once handed over. */
  owner: z.string().nullable(),
  /**
   * Unique per claim: a daemon restarted under the same DAEMON_ID never mistakes its predecessor's
   * lease for its own, and an owner recognises its own write after an answer was lost.
   */
  claim: z.string(),
  /** Whether the bot was in a voice session at the last renewal: the next owner reconnects it. */
  active: z.boolean(),
});
export type BotLease = z.infer<typeof BotLeaseSchema>;

const BOT_PREFIX = 'bot.';
const DAEMON_PREFIX = 'daemon.';

export const botLeaseKey = (botId: string): string => `${BOT_PREFIX}${botId}`;
export const daemonKey = (daemonId: string): string => `${DAEMON_PREFIX}${daemonId}`;

/** The heartbeat carries nothing: its revision changing is the news. */
export const HEARTBEAT_VALUE = '{}';

export type LeaseKey = { kind: 'bot'; botId: string } | { kind: 'daemon'; daemonId: string };

export function parseLeaseKey(key: string): LeaseKey | undefined {
  if (key.startsWith(BOT_PREFIX)) return { kind: 'bot', botId: key.slice(BOT_PREFIX.length) };
  if (key.startsWith(DAEMON_PREFIX)) return { kind: 'daemon', daemonId: key.slice(DAEMON_PREFIX.length) };
  return undefined;
}

/** A stored lease value; anything unreadable reads as free (owner null, not active). */
export function readBotLease(text: string): BotLease {
  try {
    const parsed = BotLeaseSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: falls through to a free lease
  }
  return { owner: null, claim: '', active: false };
}

export const writeBotLease = (lease: BotLease): string => JSON.stringify(lease);
