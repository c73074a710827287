/**
 * A catalog's `accountStatus` from its login and its account look-up: no stored login, or one the
 * platform no longer accepts (the look-up answers undefined), is "not logged in", never an error;
 * only a platform that cannot be reached is.
 */
import { ok, type Result } from '../result';
import type { AccountStatus } from './song-catalog';

export async function accountStatusOf<Login>(
  login: Login | undefined,
  readAccount: (login: Login) => Promise<Result<{ nickname: string; avatarUrl: string } | undefined>>,
): Promise<Result<AccountStatus>> {
  if (!login) return ok({ loggedIn: false });
  const account = await readAccount(login);
  if (!account.ok) return account;
  if (!account.value) return ok({ loggedIn: false });
  const { nickname, avatarUrl } = account.value;
  return ok({ loggedIn: true, ...(nickname && { nickname }), ...(avatarUrl && { avatarUrl }) });
}
