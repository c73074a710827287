/**
 * BotReply builders. `status` is what the api answers with. `ok` is whether the operation did what was
 * asked: a play whose song could not be played answers 200 with `ok: false`, the `{ok, message}` shape
 * SPEC gives the play-song family. The receipt travels as phrases (the api words them in its caller's
 * language) and as the text in LOCALE (what an older api answers with).
 */
import type { BotReply } from '../../../shared/bus/messages';
import { type Phrase, renderPhrases } from '../../../shared/i18n/phrases';
import { locale } from '../../../shared/receipts';

/** A reply whose receipt is the whole answer: it carries no data, so it fits every op. */
export type ReceiptReply = BotReply<never>;

/** One sentence, or several said together (what failed, then what plays instead). */
export type Said = Phrase | readonly Phrase[];

function receipt(said: Said): Pick<BotReply, 'message' | 'phrases'> {
  const phrases = Array.isArray(said) ? [...said] : [said as Phrase];
  return { message: renderPhrases(phrases, locale), phrases };
}

export function done(said: Said): ReceiptReply;
export function done<Data>(said: Said, data: Data): BotReply<Data>;
export function done<Data>(said: Said, data?: Data): BotReply<Data> {
  return data === undefined
    ? { ok: true, status: 200, ...receipt(said) }
    : { ok: true, status: 200, ...receipt(said), data };
}

/** A read's answer: data and no receipt. */
export function answer<Data>(data: Data): BotReply<Data> {
  return { ok: true, status: 200, data };
}

export function refused(status: number, said: Said): ReceiptReply {
  return { ok: false, status, ...receipt(said) };
}

export function unsuccessful(said: Said): ReceiptReply {
  return { ok: false, status: 200, ...receipt(said) };
}
