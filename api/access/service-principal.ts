/**
 * The chat service: a daemon runs chat commands through the REST API with the shared service token
 * (`X-Service-Token`), acting for the voice-server user named in `X-Act-For`. It may control and queue
 * on every bot, like anyone standing in the bot's channel; the daemon itself restricts admin-type
 * commands to `adminGroups`. The nickname becomes `requestedBy`.
 */
import { timingSafeEqual } from 'node:crypto';
import { ACT_FOR_HEADER } from '../../shared/service-headers';
import { ApiError } from '../errors';
import type { Principal } from './principal';

const SERVICE_USER_ID = 'service:chat';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The chat service principal for a request carrying the service token, or 401 for a wrong one. */
export function servicePrincipal(token: string, expected: string, actFor: string | undefined): Principal {
  if (!sameSecret(token, expected)) throw new ApiError(401, 'invalid service token');
  // Nicknames arrive percent-encoded (headers are ASCII); TeamSpeak caps them at 30 characters.
  let nickname = 'chat';
  try {
    nickname =
      decodeURIComponent(actFor ?? '')
        .trim()
        .slice(0, 64) || 'chat';
  } catch {
    throw new ApiError(400, `${ACT_FOR_HEADER}: not a valid percent-encoded nickname`);
  }
  return {
    userId: SERVICE_USER_ID,
    username: nickname,
    role: 'member',
    capabilities: ['player.control', 'player.queue'],
    bots: 'all',
    credential: { kind: 'service' },
  };
}
