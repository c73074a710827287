/**
 * Whether this server reaches each enabled platform and is logged in there (`GET
 * /api/music/sources/status`, admins only): the Settings panel shows it, the music home reads it to say
 * once that nothing can be reached and to know which platforms have a signed-in account.
 */
import type { Schemas } from '@api/index';
import { api, call } from '../api/client';
import type { Platform } from '../music/platforms';
import { can } from '../stores/session';
import { loginStatus } from './logins';

export const canSeeSourceStatus = (): boolean => can('GET', '/api/music/sources/status');
export const sourceStatus = () => call(api.GET('/api/music/sources/status'));

/**
 * Which of `platforms` have a signed-in shared account: read from the sources' status where the caller
 * has it (an admin), else from each platform's login status (a member). A guest may ask neither and
 * has no account shelf to show; a status that cannot be had counts as no account.
 */
export async function signedInAmong(
  platforms: readonly Platform[],
  status: readonly Schemas['SourceStatus'][] | undefined,
): Promise<Set<Platform>> {
  if (status)
    return new Set(status.filter((s) => s.loggedIn && platforms.includes(s.platform)).map((s) => s.platform));
  if (!can('GET', '/api/auth/status')) return new Set();
  const answers = await Promise.all(platforms.map(loginStatus));
  return new Set(
    platforms.filter((_, i) => {
      const answer = answers[i];
      return answer?.ok === true && answer.value.loggedIn;
    }),
  );
}
