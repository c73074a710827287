/**
 * BotReply builders. `status` is what the api answers with. `ok` is whether the operation did what was
 * asked: a play whose song could not be played answers 200 with `ok: false`, the `{ok, message}` shape
 * SPEC gives the play-song family.
 */
import type { BotReply } from '../../shared/bus/messages';

export function done(message: string, data?: unknown): BotReply {
  return data === undefined ? { ok: true, status: 200, message } : { ok: true, status: 200, message, data };
}

export function refused(status: number, message: string): BotReply {
  return { ok: false, status, message };
}

export function unsuccessful(message: string): BotReply {
  return { ok: false, status: 200, message };
}
