/**
 * The NetEase Cloud Music login calls (QR key and poll, SMS code, cellphone login) as the web player
 * makes them: weapi form POSTs without any login. Unlike the data calls (netease-client.ts), their
 * `code` is a state (800-803 for a QR attempt) rather than success or failure, and the login they
 * make arrives in Set-Cookie; so the whole answer comes back: its body and the cookies it set.
 *
 * Shapes from Binaryify/NeteaseCloudMusicApi (module/login_qr_key.js, login_qr_check.js,
 * captcha_sent.js, login_cellphone.js: the login cookie is the response's Set-Cookie).
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { setCookies } from '../http/cookies';
import { fetchResponse, readJson } from '../http/fetch-json';
import { NETEASE_ORIGIN, SERVICE, weapiRequest } from './netease-client';
import type { NeteaseLogin } from './netease-login';

/** What every login answer carries. */
export const LoginAnswerSchema = z.object({
  code: z.number(),
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
  const response = await fetchResponse(SERVICE, `${NETEASE_ORIGIN}${path}`, weapiRequest(data, login));
  if (!response.ok) return response;
  const json = await readJson(SERVICE, response.value);
  if (!json.ok) return json;
  const answer = schema.safeParse(json.value);
  if (!answer.success) return err(`${SERVICE} answered ${path} in an unexpected shape`);
  return ok({ answer: answer.data, cookie: setCookies(response.value) });
}

/** The sentence for an answer code that is not one the caller expects. */
export function refusal(what: string, answer: z.output<typeof LoginAnswerSchema>): string {
  const reason = answer.message || answer.msg;
  return `${SERVICE} refused ${what} (code ${answer.code}${reason ? `: ${reason}` : ''})`;
}
