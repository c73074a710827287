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

/** Close codes in the application range: the browser tells "signed out" from a network drop. */
export const WS_CLOSE_GUEST_MODE_DISABLED = 4001;
