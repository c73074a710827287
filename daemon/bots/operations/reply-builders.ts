/**
 * BotReply builders. `status` is what the api answers with. `ok` is whether the operation did what was
 * asked: a play whose song could not be played answers 200 with `ok: false`, the `{ok, message}` shape
 * SPEC gives the play-song family.
 */
import type { BotReply } from '../../../shared/bus/messages';

/** A reply whose receipt is the whole answer: it carries no data, so it fits every op. */
export type ReceiptReply = BotReply<never>;

export function done(message: string): ReceiptReply;
export function done<Data>(message: string, data: Data): BotReply<Data>;
export function done<Data>(message: string, data?: Data): BotReply<Data> {
  return data === undefined ? { ok: true, status: 200, message } : { ok: true, status: 200, message, data };
}

/** A read's answer: data and no receipt. */
export function answer<Data>(data: Data): BotReply<Data> {
  return { ok: true, status: 200, data };
}

export function refused(status: number, message: string): ReceiptReply {
  return { ok: false, status, message };
}

export function unsuccessful(message: string): ReceiptReply {
  return { ok: false, status: 200, message };
}
