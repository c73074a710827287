/**
 * Why a bot could not connect, as a sentence its reader understands in their language: nobody answering
 * at the address, or the voice server's refusal by its error id (wrong password, banned, full …), each
 * with its own phrase. Anything else says the client's words only where the reader is English (the
 * generic `startFailed`); the words themselves are in the log either way (bot-lifecycle.ts).
 */
import { type Phrase, type PhraseCode, say } from '../../../shared/i18n/phrases';
import { TS3_ERROR } from '../../ts3';
import type { ConnectAttemptFailure } from './bot-lifecycle';

/** Socket errors that mean nothing answers at the voice server's address (refused, no route, no such host). */
const UNREACHABLE = /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN/;

type RefusalCode = Extract<
  PhraseCode,
  | 'startWrongServerPassword'
  | 'startWrongChannelPassword'
  | 'startBanned'
  | 'startServerFull'
  | 'startNicknameInUse'
  | 'startClientOutdated'
  | 'startSecurityLevel'
  | 'startTooManyClones'
  | 'startNotPermitted'
>;

/** The server's refusals by error id (TS3_ERROR); a flood ban is a ban too. */
const REFUSALS: ReadonlyMap<number, RefusalCode> = new Map([
  [TS3_ERROR.serverInvalidPassword, 'startWrongServerPassword'],
  [TS3_ERROR.channelInvalidPassword, 'startWrongChannelPassword'],
  [TS3_ERROR.connectFailedBanned, 'startBanned'],
  [TS3_ERROR.banFlooding, 'startBanned'],
  [TS3_ERROR.serverMaxClientsReached, 'startServerFull'],
  [TS3_ERROR.clientNicknameInUse, 'startNicknameInUse'],
  [TS3_ERROR.clientVersionOutdated, 'startClientOutdated'],
  [TS3_ERROR.clientCouldNotValidateIdentity, 'startSecurityLevel'],
  [TS3_ERROR.clientTooManyClonesConnected, 'startTooManyClones'],
  [TS3_ERROR.clientLoginNotPermitted, 'startNotPermitted'],
  [TS3_ERROR.permissionsClientInsufficient, 'startNotPermitted'],
]);

/** `address`: the configured `host:port`, which an unreachable server is named by. */
export function startFailurePhrase(failure: ConnectAttemptFailure, address: string): Phrase {
  const refusal = failure.serverErrorId === undefined ? undefined : REFUSALS.get(failure.serverErrorId);
  if (refusal) return say[refusal]();
  if (UNREACHABLE.test(failure.message)) return say.startUnreachable(address);
  return say.startFailed(failure.message);
}
