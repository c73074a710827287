/**
 * Message schemas of the bus, parsed on both ends: `msg.json()` style casts are never trusted.
 */
import { z } from 'zod';
import { BotStatusSchema, QueuedSongSchema } from '../domain/schemas';

/** Who asks: the api's authenticated principal, or the chat user a chat command acts for. */
export const ActorSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(['admin', 'member', 'guest']),
});
export type Actor = z.infer<typeof ActorSchema>;

export const BotCommandSchema = z.object({
  op: z.string().min(1),
  args: z.unknown().optional(),
  actor: ActorSchema,
});
export type BotCommand = z.infer<typeof BotCommandSchema>;

/**
 * A daemon's answer. `status` is the HTTP status the api answers with, so domain outcomes
 * (bot not connected → 409) travel as data and bus failures stay bus failures.
 */
export const BotReplySchema = z.object({
  ok: z.boolean(),
  status: z.number().int().min(100).max(599),
  /** The receipt in the daemon's LOCALE: what an api without `phrases` (an older one) answers with. */
  message: z.string().optional(),
  /** The receipt as phrases (shared/i18n/phrases.ts), worded by the api in its caller's language. */
  phrases: z
    .array(z.object({ code: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])) }))
    .optional(),
  data: z.unknown().optional(),
});
/** A reply whose `data` has been parsed with its op's reply schema (bot-ops.ts). */
export type BotReply<Data = unknown> = Omit<z.infer<typeof BotReplySchema>, 'data'> & { data?: Data };

/** A daemon's answer to a drain: started (with the bots it is moving), or refused as the only daemon. */
export const DrainReplySchema = z.object({ started: z.boolean(), bots: z.number().int().min(0) });
export type DrainReply = z.infer<typeof DrainReplySchema>;

export const BotStateEventSchema = z.object({
  bot: BotStatusSchema,
  /** Bumped on every queue change, so a listener knows when to fetch or forward the queue. */
  queueVersion: z.number().int(),
  queue: z.array(QueuedSongSchema).optional(),
});
export type BotStateEvent = z.infer<typeof BotStateEventSchema>;

/** A batch of the Opus frames a bot sent (20 ms each, base64), oldest first. */
export const ListenBatchSchema = z.object({ frames: z.array(z.string()).max(1000) });
export type ListenBatch = z.infer<typeof ListenBatchSchema>;

export const BotsEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('botCreated'), botId: z.string() }),
  z.object({ type: z.literal('botUpdated'), botId: z.string() }),
  z.object({ type: z.literal('botRemoved'), botId: z.string() }),
]);
export type BotsEvent = z.infer<typeof BotsEventSchema>;

export const GuestModeEventSchema = z.object({
  enabled: z.boolean(),
  bots: z.union([z.literal('all'), z.array(z.string())]),
});
export type GuestModeEvent = z.infer<typeof GuestModeEventSchema>;

export const AccountsChangedEventSchema = z.object({ userIds: z.array(z.string()).min(1) });
export type AccountsChangedEvent = z.infer<typeof AccountsChangedEventSchema>;

export const SettingsEventSchema = z.object({ keys: z.array(z.string()) });
export type SettingsEvent = z.infer<typeof SettingsEventSchema>;
