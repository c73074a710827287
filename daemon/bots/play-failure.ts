/**
 * Why a song could not play, in phrases its reader understands in their language: the decoder's kind
 * of failure (decode-problem.ts), a platform that never answered, or a platform's refusal of a common
 * kind (shared/sources/http/refusals.ts) each have a phrase of their own. Any other sentence of a
 * source is said only where the reader is English (`playbackFailed`'s detail); the log has it anyway.
 */
import { type Phrase, type PhraseCode, say } from '../../shared/i18n/phrases';
import { REFUSAL_CODES, refusalKind } from '../../shared/sources/http/refusals';
import { saysUnreachable } from '../../shared/sources/http/unreachable';
import type { DecodeProblem } from '../audio/decode/decode-problem';
import type { PlayFailure } from './bot-player';

const PROBLEM_CODES = {
  decoderMissing: 'playbackDecoderMissing',
  sourceRefused: 'playbackSourceRefused',
  sourceNotFound: 'playbackSourceNotFound',
  sourceUnreachable: 'playbackSourceUnreachable',
  formatUnsupported: 'playbackFormatUnsupported',
  decodeFailed: 'playbackDecodeFailed',
} as const satisfies Record<DecodeProblem, PhraseCode>;

export function playFailurePhrases({ song, reason, problem }: PlayFailure): Phrase[] {
  if (problem) return [say[PROBLEM_CODES[problem]](song)];
  if (saysUnreachable(reason)) return [say.playbackSourceUnreachable(song)];
  const kind = refusalKind(reason);
  if (kind) return [say.playbackRefused(song), say[REFUSAL_CODES[kind]](song.platform, reason)];
  return [say.playbackFailed(song, reason)];
}
