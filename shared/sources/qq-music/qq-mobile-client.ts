/**
 * The phone QQ Music's API is asked as: its Android app (version 14.9.0.8) on a made-up device. Every
 * `musicu.fcg` request carries the app's `comm` block — client type and version, channel, the device
 * ids (`OpenUDID`, `aid`, the phone's model, system and build), the session QQ Music handed the device
 * (`uid`, `sid`) and, with a login, the account (`qq`), its music key (`authst`) and login kind
 * (`tmeLoginType`) — and the app's User-Agent. QQ Music answers the web player's settings with empty
 * audio paths; these are the settings its phone app sends now.
 *
 * The device is made once per process (the reference keeps it in memory unless told a file). Before
 * its first request, and again after a day, it registers: Tencent's QIMEI service names it
 * (qq-qimei.ts; `QIMEI`, `QIMEI36`), then `music.getSession.session`/`GetSession` opens its session.
 * Concurrent first requests share one registration. A QIMEI service that cannot be reached leaves the
 * two ids empty rather than stopping playback (the reference gives up there instead).
 *
 * Values and rules from L-1124/QQMusicApi (qqmusic_api/core/versioning.py `DEFAULT_VERSION_POLICY`
 * android profile and `build_comm`, `get_user_agent`; core/client.py `_ensure_session`;
 * utils/device.py `Device`: the phone's model, system and id forms; models/request.py `Credential`:
 * a music key starting `W_X` is a WeChat login, type 1, else a QQ one, type 2).
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { cookieValues } from '../http/cookies';
import { fetchJson } from '../http/fetch-json';
import type { QqLogin } from './qq-music-login';
import { askQimei, type Qimei } from './qq-qimei';

export const MUSICU_URL = 'https://u.y.qq.com/cgi-bin/musicu.fcg';
export const QQ_SERVICE = 'QQ Music';

const APP_VERSION = 14090008;
/** `ct` 11: the Android app. */
const CLIENT_TYPE = 11;
const CHANNEL = '10003505';
const PHONE = { brand: 'Xiaomi', device: 'sagit', model: 'MI 6', system: '10', sdk: 29 } as const;
export const MOBILE_USER_AGENT = `QQMusic ${APP_VERSION}(android ${PHONE.system})`;
/** The client type and version some requests also repeat in their parameters (the lyric request). */
export const MOBILE_QUERY_VERSION = { ct: CLIENT_TYPE, cv: APP_VERSION } as const;
const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;
const WECHAT_KEY_PREFIX = 'W_X';

interface Device {
  /** The app's install id, sent as `OpenUDID`, `OpenUDID2` and `udid`. */
  openUdid: string;
  androidId: string;
  rom: string;
}

interface Session extends Qimei {
  uid: string;
  sid: string;
  fetchedAt: number;
}

const device: Device = {
  openUdid: randomUUID().replaceAll('-', ''),
  androidId: randomBytes(8).toString('hex'),
  rom: `xiaomi/iarim/sagit:${PHONE.system}/eomam.200122.001/${randomInt(1_000_000, 10_000_000)}:user/release-keys`,
};
let session: Promise<Result<Session>> | undefined;

const SessionDataSchema = z.object({
  session: z.object({ uid: z.union([z.string(), z.number()]).transform(String), sid: z.string() }),
});
const SessionAnswerSchema = z.object({
  code: z.number(),
  req_0: z.object({ code: z.number(), data: z.unknown().optional() }).optional(),
});

/** `tmeLoginType`: what the stored cookie says, else what the music key's form says. */
export function loginTypeOf(login: QqLogin): number {
  const stored = Number(cookieValues(login.cookie).get('tmeLoginType'));
  if (Number.isInteger(stored) && stored > 0) return stored;
  return login.musicKey.startsWith(WECHAT_KEY_PREFIX) ? 1 : 2;
}

/** The `comm` block of a request from the device, as `login` when there is one. */
function mobileComm(current: Partial<Session> & Qimei, login: QqLogin | undefined): Record<string, unknown> {
  return {
    ct: CLIENT_TYPE,
    cv: APP_VERSION,
    v: APP_VERSION,
    chid: CHANNEL,
    tmeAppID: 'qqmusic',
    ...(login && { qq: login.uin, authst: login.musicKey, tmeLoginType: loginTypeOf(login) }),
    QIMEI: current.q16,
    QIMEI36: current.q36,
    OpenUDID: device.openUdid,
    udid: device.openUdid,
    OpenUDID2: device.openUdid,
    ...(current.uid !== undefined && { uid: current.uid, sid: current.sid }),
    aid: device.androidId,
    os_ver: PHONE.system,
    phonetype: PHONE.model,
    devicelevel: String(PHONE.sdk),
    newdevicelevel: String(PHONE.sdk),
    rom: device.rom,
  };
}

/** One `{comm, req_0}` POST as the phone app sends it; the raw JSON answer. */
function post(comm: Record<string, unknown>, request: unknown): Promise<Result<unknown>> {
  return fetchJson(QQ_SERVICE, MUSICU_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': MOBILE_USER_AGENT },
    body: JSON.stringify({ comm, req_0: request }),
  });
}

async function askSession(): Promise<Result<Session>> {
  const named = await askQimei({ ...PHONE, androidId: device.androidId });
  const qimei = named.ok ? named.value : { q16: '', q36: '' };
  const answer = await post(mobileComm(qimei, undefined), {
    module: 'music.getSession.session',
    method: 'GetSession',
    param: { uid: '', vkey: 0, caller: 0 },
  });
  if (!answer.ok) return answer;
  const envelope = SessionAnswerSchema.safeParse(answer.value);
  const data = SessionDataSchema.safeParse(envelope.data?.req_0?.data);
  if (!envelope.success || !data.success || envelope.data.code !== 0 || envelope.data.req_0?.code !== 0)
    return err(`${QQ_SERVICE} did not open a session for this server; try again in a while`);
  return ok({ ...qimei, ...data.data.session, fetchedAt: Date.now() });
}

/** The device's session: the one in hand while it is under a day old, else a new one. */
async function currentSession(): Promise<Result<Session>> {
  const pending = session;
  const held = pending && (await pending);
  if (held?.ok && Date.now() - held.value.fetchedAt < SESSION_LIFETIME_MS) return held;
  // A failed or old session is asked for again, once: callers arriving meanwhile wait for that answer.
  if (session === pending) session = askSession();
  return session ?? askSession();
}

/** One musicu request from the phone, as `login` when given; the raw JSON answer. */
export async function mobileRequest(
  request: unknown,
  login: QqLogin | undefined,
  extraComm?: Record<string, unknown>,
): Promise<Result<unknown>> {
  const current = await currentSession();
  if (!current.ok) return current;
  return post({ ...mobileComm(current.value, login), ...extraComm }, request);
}
