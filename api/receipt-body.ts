/**
 * A receipt as the API answers it: `message` worded in the caller's language, and the phrase it was
 * worded from (`code`, `params`) so a client can word it itself; `more` holds the sentences after the
 * first when one call said several (a song that failed, then the one that plays instead).
 */
import {
  type Locale,
  type Phrase,
  type PhraseCode,
  type PhraseParams,
  renderPhrases,
  say,
} from '../shared/i18n/phrases';

export interface ReceiptBody {
  message: string;
  code: PhraseCode;
  params: PhraseParams;
  more?: Phrase[];
}

export function receiptBody(said: readonly Phrase[], locale: Locale): ReceiptBody {
  const [first = say.requestFailed(), ...rest] = said;
  return {
    message: renderPhrases([first, ...rest], locale),
    code: first.code,
    params: first.params,
    ...(rest.length && { more: rest }),
  };
}

/** The Undo token of a call that replaced a bot's queue (shared/bus/bot-ops.ts), as the answer carries it. */
export const undoField = (data: { undoToken: string } | undefined): { undoToken?: string } =>
  data ? { undoToken: data.undoToken } : {};
