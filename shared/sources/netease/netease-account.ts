/**
 * Who a NetEase Cloud Music login is: `/weapi/w/nuser/account/get`, the web player's own login check.
 * A dead cookie is answered either with code 301 or with `account`/`profile` null; both mean "not
 * logged in", which is an answer, not a failure.
 *
 * Endpoint and answer from Binaryify/NeteaseCloudMusicApi (module/login_status.js, module/user_account.js).
 */
import { ok, type Result } from '../../result';
import type { NeteaseClient } from './netease-client';
import type { NeteaseLogin } from './netease-login-shape';
import { AccountSchema } from './netease-schemas';

export interface NeteaseAccount {
  uid: number;
  nickname: string;
  avatarUrl: string;
}

/** The login's account, or undefined when the cookie no longer logs in. */
export async function readAccount(
  client: NeteaseClient,
  login: NeteaseLogin,
): Promise<Result<NeteaseAccount | undefined>> {
  const answer = await client.probe('/weapi/w/nuser/account/get', {}, AccountSchema, login);
  if (!answer.ok) return answer;
  const profile = answer.value?.account ? answer.value.profile : undefined;
  return ok(
    profile
      ? { uid: profile.userId, nickname: profile.nickname, avatarUrl: profile.avatarUrl ?? '' }
      : undefined,
  );
}

/** The refusal for a personal page asked for without any stored login. */
export const needsLogin = (what: string) => `${what} needs a NetEase Cloud Music login; log in first`;
