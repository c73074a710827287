/**
 * Asks the daemon that owns a bot to do something, over the bus. Bus failures become 503s with a
 * sentence that tells them apart: nobody owns the bot, the daemon is slow, or the bus is down.
 */
import { BusError } from '../shared/bus/bus';
import { type Actor, type BotReply, BotReplySchema } from '../shared/bus/messages';
import { botCommandSubject } from '../shared/bus/subjects';
import type { AppDeps } from './env';
import { ApiError } from './errors';

export interface AskOptions {
  timeoutMs?: number;
}

/** The raw exchange: a parsed reply, or a BusError for the caller to interpret. */
export async function requestBot(
  deps: Pick<AppDeps, 'bus'>,
  botId: string,
  op: string,
  args: unknown,
  actor: Actor,
  options: AskOptions = {},
): Promise<BotReply> {
  const raw = await deps.bus.request(botCommandSubject(botId), { op, args, actor }, options);
  const reply = BotReplySchema.safeParse(raw);
  if (!reply.success) throw new Error(`malformed reply from the daemon for ${op}: ${reply.error.message}`);
  return reply.data;
}

/** `requestBot` with bus failures turned into API errors. */
export async function askBot(...args: Parameters<typeof requestBot>): Promise<BotReply> {
  try {
    return await requestBot(...args);
  } catch (error) {
    if (error instanceof BusError) throw busFailureToApiError(error);
    throw error;
  }
}

export function busFailureToApiError(error: BusError): ApiError {
  switch (error.failure) {
    case 'no-responders':
      return new ApiError(503, 'no daemon is running this bot right now');
    case 'timeout':
      return new ApiError(503, 'the bot daemon did not answer in time');
    case 'unavailable':
      return new ApiError(503, 'the message bus is unavailable');
    case 'handler-failed':
      return new ApiError(500, `the bot daemon failed: ${error.message}`);
  }
}
