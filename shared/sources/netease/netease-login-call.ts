/**
 * The NetEase Cloud Music login calls (QR key and poll, SMS code, cellphone login, renewal) as its
 * clients make them, from the device (netease-device.ts). Unlike the data calls (netease-client.ts),
 * their `code` is a state (800-803 for a QR attempt) rather than success or failure, and the login they
 * make arrives in Set-Cookie; so the whole answer comes back: its body and the cookies it set.
 *
 * Shapes from NeteaseCloudMusicApiEnhanced/api-enhanced (module/login_qr_key.js, login_qr_check.js,
 * captcha_sent.js, login_cellphone.js, login_refresh.js: the login cookie is the response's Set-Cookie).
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { anonymousDevice } from './netease-device';
import type { NeteaseLogin } from './netease-login-shape';
import { SERVICE, send } from './netease-transport';

/** What every login answer carries. */
export const LoginAnswerSchema = z.object({
  code: z.coerce.number(),
  message: z.string().nullish(),
  msg: z.string().nullish(),
});

export interface LoginAnswer<T> {
  answer: T;
  /** The cookies the answer set, `name=value; …` (a secret once it holds the login). */
  cookie: string;
}

/** `login` is sent along by the calls that renew a login rather than make one (the token refresh). */
export async function loginCall<T extends z.ZodType>(
  path: string,
  data: Record<string, unknown>,
  schema: T,
  login?: NeteaseLogin,
): Promise<Result<LoginAnswer<z.output<T>>>> {
  const answered = await send(path, data, login, await anonymousDevice());
  if (!answered.ok) return answered;
  const answer = schema.safeParse(answered.value.json);
  if (!answer.success) return err(`${SERVICE} answered ${path} in an unexpected shape`);
  return ok({ answer: answer.data, cookie: answered.value.cookie });
}
