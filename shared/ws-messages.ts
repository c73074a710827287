/**
 * Server-to-browser WebSocket frames (DECISIONS.md "WebSocket"), one discriminated union so the
 * gateway, the web UI and the tests agree on every shape.
 */
import { z } from 'zod';
import { BotStatusSchema, QueuedSongSchema } from './domain/schemas';

export const WsMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), bots: z.array(BotStatusSchema) }),
  z.object({ type: z.literal('status'), bot: BotStatusSchema }),
  z.object({ type: z.literal('queue'), botId: z.string(), queue: z.array(QueuedSongSchema) }),
  z.object({ type: z.literal('botRemoved'), botId: z.string() }),
]);
export type WsMessage = z.infer<typeof WsMessageSchema>;

/** The server is shutting down ("going away"): the browser reconnects, to the next server behind a proxy. */
export const WS_CLOSE_GOING_AWAY = 1001;

/**
 * The socket's credential no longer authenticates (4000 + HTTP 401): its session ended (logout, a
 * password change or reset, guest mode switched off), its key was revoked, or its account deleted.
 * In the application range, so the browser tells it from a network drop.
 */
export const WS_CLOSE_SIGNED_OUT = 4401;
