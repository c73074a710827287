/**
 * What the lease bucket holds, and how values are read:
 *   - `daemon.<daemonId>.<session>`: a daemon's liveness lease, one per running daemon process (a new
 *     session each start, and each time its lease lapsed). Renewed every 2 s; it is what keeps every bot
 *     that daemon owns. Its value says whether the daemon is draining (placement gives it no bots) and
 *     which of its bots are in a voice session, so whoever takes them over after it died reconnects
 *     those (as fresh as the last renewal, as the per-bot leases of the release before were).
 *   - `bot.<botId>`: the bot's ownership record `{owner, session, claim, active}`, written only when the
 *     bot changes hands (a claim, a hand-over, a takeover). `owner: null` marks a bot handed over by its
 *     daemon, claimable at once; otherwise the bot is owned while the liveness lease it names lives.
 * Values are parsed with zod like every outside input; a bot record that does not parse counts as free,
 * so junk in the bucket never blocks a bot.
 *
 * A record without `session` was written by a release that renewed one lease per bot (no key of its
 * own names its owner's liveness): it counts as owned while its revision is younger than the TTL, as it
 * did there, so a cluster mixing the two never takes a bot its old owner still renews.
 */
import { z } from 'zod';

export const BotLeaseSchema = z.object({
  /** The daemon running the bot; null once handed over. */
  owner: z.string().nullable(),
  /** The owner's liveness session: the bot is owned while `daemon.<owner>.<session>` lives. */
  session: z.string().optional(),
  /**
   * Unique per claim: an owner recognises its own write after an answer was lost, and a change of claim
   * under it means the bot was taken.
   */
  claim: z.string(),
  /**
   * Whether the bot was in a voice session when it changed hands: the next owner reconnects it. After a
   * takeover, the dead owner's liveness lease says it more recently.
   */
  active: z.boolean(),
});
export type BotLease = z.infer<typeof BotLeaseSchema>;

export const LivenessSchema = z.object({
  /** Handing its bots over before it stops: placement gives it none, rebalancing none either. */
  draining: z.boolean(),
  /** Its bots in a voice session at this renewal. */
  active: z.array(z.string()),
});
export type Liveness = z.infer<typeof LivenessSchema>;

const BOT_PREFIX = 'bot.';
const DAEMON_PREFIX = 'daemon.';

export const botLeaseKey = (botId: string): string => `${BOT_PREFIX}${botId}`;
/** DAEMON_ID holds no dot (shared/config.ts), so the key splits back into its two parts. */
export const livenessKey = (daemonId: string, session: string): string =>
  `${DAEMON_PREFIX}${daemonId}.${session}`;

export type LeaseKey =
  | { kind: 'bot'; botId: string }
  | { kind: 'liveness'; daemonId: string; session: string };

/** Keys of neither kind (the per-daemon heartbeats of the release before) are not this daemon's concern. */
export function parseLeaseKey(key: string): LeaseKey | undefined {
  if (key.startsWith(BOT_PREFIX)) return { kind: 'bot', botId: key.slice(BOT_PREFIX.length) };
  if (!key.startsWith(DAEMON_PREFIX)) return undefined;
  const [daemonId, session, ...rest] = key.slice(DAEMON_PREFIX.length).split('.');
  return daemonId && session && rest.length === 0 ? { kind: 'liveness', daemonId, session } : undefined;
}

/** A stored bot record; anything unreadable reads as free (owner null, not active). */
export function readBotLease(text: string): BotLease {
  return parsed(BotLeaseSchema, text) ?? { owner: null, claim: '', active: false };
}

/** A stored liveness value; anything unreadable reads as a daemon that is not draining, no bot active. */
export function readLiveness(text: string): Liveness {
  return parsed(LivenessSchema, text) ?? { draining: false, active: [] };
}

export const writeBotLease = (lease: BotLease): string => JSON.stringify(lease);
export const writeLiveness = (liveness: Liveness): string => JSON.stringify(liveness);

function parsed<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    if (result.success) return result.data;
  } catch {
    // not JSON
  }
  return undefined;
}
