/**
 * A stand-in for QQ Music's `musicu.fcg` gateway (msw), as QQ Music's phone app meets it: a JSON POST
 * of `{comm, req_0: {module, method, param}}` with the app's User-Agent and its `comm` block (client
 * type 11 and version 14090008, channel, the device ids, the `QIMEI` pair the QIMEI stand-in here
 * handed out, and the session this stand-in handed out with `GetSession`; with a login the account,
 * its key and login kind together). A request without that
 * shape is turned away with code 2000, as QQ Music turns away requests it does not trust. Some modules
 * check their own parameters too: the audio path request (`UrlGetVkey`) wants each file named by a
 * quality prefix and the track's `media_mid`, the lyric request `songMid` with `crypt` 1, the search
 * a search id, the similar songs a numeric `songid`. Answers come from the trimmed fixtures in tests/fixtures/qq-music; tests swap single
 * answers with `answer(...)` and read what was asked in `requests` (the session requests are not
 * logged there). Loopback requests pass through untouched (the api under test, local audio servers).
 *
 * Shapes from L-1124/QQMusicApi (core/versioning.py, core/client.py, qqmusic_api/modules/*.py); see
 * tests/fixtures/qq-music/README.md.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { HttpResponse, http } from 'msw';
import { z } from 'zod';
import type { Playlist } from '../../shared/domain/schemas';
import { MUSICU_URL } from '../../shared/sources/qq-music/qq-mobile-client';
import { QIMEI_URL } from '../../shared/sources/qq-music/qq-qimei';
import { qrcTripleDes } from '../../shared/sources/qq-music/qrc-crypt';
import { useMswServer } from './msw-server';
import { readFixture, usePlatformStub } from './platform-stub';

/** The device ids the QIMEI stand-in hands every phone. */
export const FIXTURE_QIMEI = {
  q16: 'fixtureq16000000000000000000000000',
  q36: 'fixtureq3600000000000000000000000000',
};
/** The session this stand-in hands every device. */
export const FIXTURE_SESSION = {
  uid: '3100000001',
  sid: 'FixtureSessionSid0001',
  vkey: 'FixtureSessionVkey',
};
const UNTRUSTED = { code: 0, req_0: { code: 2000, data: {} } };

/** The phone app's `comm`, as the reference builds it for Android (written out here, not imported). */
const MobileCommSchema = z
  .object({
    ct: z.literal(11),
    cv: z.literal(14090008),
    v: z.literal(14090008),
    chid: z.literal('10003505'),
    tmeAppID: z.literal('qqmusic'),
    OpenUDID: z.string().regex(/^[0-9a-f]{32}$/),
    udid: z.string(),
    OpenUDID2: z.string(),
    aid: z.string().regex(/^[0-9a-f]{16}$/),
    os_ver: z.string().min(1),
    phonetype: z.string().min(1),
    devicelevel: z.string().regex(/^\d+$/),
    newdevicelevel: z.string().regex(/^\d+$/),
    rom: z.string().min(1),
    QIMEI: z.literal(FIXTURE_QIMEI.q16),
    QIMEI36: z.literal(FIXTURE_QIMEI.q36),
    uid: z.string().optional(),
    sid: z.string().optional(),
    qq: z.string().optional(),
    authst: z.string().optional(),
    tmeLoginType: z.number().optional(),
  })
  .refine((comm) => comm.udid === comm.OpenUDID && comm.OpenUDID2 === comm.OpenUDID)
  .refine((comm) => (comm.authst === undefined) === (comm.qq === undefined))
  .refine((comm) => comm.authst === undefined || comm.tmeLoginType !== undefined);

export const MusicuRequestSchema = z.object({
  comm: MobileCommSchema,
  req_0: z.object({ module: z.string(), method: z.string(), param: z.record(z.string(), z.unknown()) }),
});
export type MusicuRequest = z.infer<typeof MusicuRequestSchema>;

const isSessionRequest = (request: MusicuRequest) =>
  request.req_0.module === 'music.getSession.session' && request.req_0.method === 'GetSession';

/**
 * A request from QQ Music's phone app, or undefined: the User-Agent, the `comm` block and, past the
 * session request itself, the session this stand-in handed out.
 */
export function mobileRequest(body: unknown, headers: Headers): MusicuRequest | undefined {
  const parsed = MusicuRequestSchema.safeParse(body);
  if (!parsed.success || !/^QQMusic 14090008\(android \d+\)$/.test(headers.get('user-agent') ?? ''))
    return undefined;
  if (headers.get('content-type') !== 'application/json') return undefined;
  const { uid, sid } = parsed.data.comm;
  if (!isSessionRequest(parsed.data) && (uid !== FIXTURE_SESSION.uid || sid !== FIXTURE_SESSION.sid))
    return undefined;
  return parsed.data;
}

/** The answer to the phone's session request; undefined for any other request. */
export function sessionAnswer(request: MusicuRequest): Response | undefined {
  if (!isSessionRequest(request)) return undefined;
  return HttpResponse.json({ code: 0, req_0: { code: 0, data: { session: FIXTURE_SESSION } } });
}

const md5 = (...parts: string[]) => createHash('md5').update(parts.join('')).digest('hex');
const QimeiBodySchema = z.object({
  app: z.literal(0),
  os: z.literal(1),
  qimeiParams: z.object({
    key: z.string().base64(),
    params: z.string().base64().min(1),
    time: z.string().regex(/^\d+$/),
    nonce: z.string().regex(/^[0-9a-f]{16}$/),
    sign: z.string(),
    extra: z.literal('{"appKey":"0AND0HD6FE4HY80F"}'),
  }),
});

/**
 * Tencent's QIMEI service as the phone app meets it: the proxy's headers (service, method, app id and
 * their md5 sign over the time), an RSA-encrypted key (128 bytes) and its encrypted description, signed
 * with the app's secret. It answers the fixture's two ids; anything else is refused.
 */
export const qimeiHandler = http.post(QIMEI_URL, async ({ request }) => {
  const body = QimeiBodySchema.safeParse(await request.json());
  const seconds = request.headers.get('timestamp') ?? '';
  const headersFit =
    request.headers.get('method') === 'GetQimei' &&
    request.headers.get('service') === 'trpc.tme_datasvr.qimeiproxy.QimeiProxy' &&
    request.headers.get('appid') === 'qimei_qq_android' &&
    request.headers.get('sign') === md5('qimei_qq_androidpzAuCmaFAaFaHrdakPjLIEqKrGnSOOvH', seconds);
  if (!body.success || !headersFit) return HttpResponse.json({ code: -1, data: '', msg: 'bad request' });
  const { key, params, time, nonce, sign, extra } = body.data.qimeiParams;
  const signed = md5(key, params, String(Number(time) * 1000), nonce, 'ZdJqM15EeO2zWc08', extra);
  if (sign !== signed || Buffer.from(key, 'base64').length !== 128)
    return HttpResponse.json({ code: -1, data: '', msg: 'bad sign' });
  return HttpResponse.json({ code: 0, data: JSON.stringify({ code: 0, data: FIXTURE_QIMEI }) });
});

/** A musicu request refused the way QQ Music refuses one it does not trust. */
export const untrusted = () => HttpResponse.json(UNTRUSTED);

/** A fixture as the JSON body of an answer. */
const answerFixture = (name: string) => readFixture<Record<string, unknown>>('qq-music', name);
export const qqFixture = (name: string): unknown => answerFixture(name);

/**
 * The fixtures' "Rainy Evenings" playlist (a playlist search hit, and one the login's account
 * collected), as the catalog maps it.
 */
export const RAINY_EVENINGS: Playlist = {
  id: '8100000001',
  name: 'Rainy Evenings',
  coverUrl: 'http://qpic.y.qq.com/music_cover/FixtureCoverRain/300?n=1',
  songCount: 30,
  platform: 'music_b',
};

/** `DoSearchForQQMusicMobile` answers per `search_type`: songs, albums, playlists. */
const SEARCH_ANSWERS: Record<number, string> = { 0: 'search', 2: 'search-albums', 3: 'search-playlists' };
const SEARCH = 'music.search.SearchCgiService.DoSearchForQQMusicMobile';
const VKEY = 'music.vkey.GetVkey.UrlGetVkey';
const LYRICS = 'music.musichallSong.PlayLyricInfo.GetPlayLyricInfo';
const SIMILAR = 'music.recommend.TrackRelationServer.GetSimilarSongs';

/** The fixture answering each module.method pair by default. */
const DEFAULT_ANSWERS: Record<string, string> = {
  'music.trackInfo.UniformRuleCtrl.CgiGetTrackInfo': 'track-info',
  'music.srfDissInfo.DissInfo.CgiGetDiss': 'playlist',
  'music.musichallAlbum.AlbumSongList.GetAlbumSongList': 'album',
  [VKEY]: 'vkey',
  [LYRICS]: 'lyrics',
  'music.playlist.PlaylistSquare.GetRecommendFeed': 'recommend-playlists',
  'music.recommend.RecommendFeed.get_recommend_feed': 'home-feed',
  'music.radioProxy.MbTrackRadioSvr.get_radio_track': 'personal-radio',
  [SIMILAR]: 'similar-songs',
  'music.UserInfo.userInfoServer.GetLoginUserInfo': 'login-user-info',
  'music.UnifiedHomepage.UnifiedHomepageSrv.GetHomepageHeader': 'homepage',
  'music.musicasset.PlaylistBaseRead.GetPlaylistByUin': 'created-playlists',
  'music.musicasset.PlaylistFavRead.CgiGetPlaylistFavInfo': 'collected-playlists',
};

function defaultFixture(key: string, param: Record<string, unknown>): string | undefined {
  return key === SEARCH ? SEARCH_ANSWERS[Number(param.search_type)] : DEFAULT_ANSWERS[key];
}

/** Each fixture track's `media_mid`, by its song mid: what an audio file's name is made of. */
const MEDIA_MIDS = new Map<string, string>();
function collectTracks(value: unknown): void {
  if (Array.isArray(value)) value.forEach(collectTracks);
  else if (typeof value === 'object' && value !== null) {
    const { mid, file } = value as { mid?: unknown; file?: { media_mid?: unknown } };
    if (typeof mid === 'string' && typeof file?.media_mid === 'string') MEDIA_MIDS.set(mid, file.media_mid);
    Object.values(value).forEach(collectTracks);
  }
}
for (const name of ['track-info', 'search', 'playlist', 'album', 'personal-radio', 'similar-songs'])
  collectTracks(answerFixture(name));
const AUDIO_FILE = /^[A-Z0-9]{4}(\w+)\.(?:mp3|m4a|flac|ogg)$/;

/** Whether a module's own parameters have the phone app's shape (the modules that check any). */
function paramsHaveShape(key: string, param: Record<string, unknown>): boolean {
  if (key === SEARCH) return typeof param.searchid === 'string' && param.searchid !== '';
  if (key === LYRICS)
    return typeof param.songMid === 'string' && param.crypt === 1 && param.ct === 11 && param.cv === 14090008;
  if (key === SIMILAR) return Number.isInteger(param.songid);
  if (key !== VKEY) return true;
  const files = param.filename as unknown[];
  const mids = param.songmid as unknown[];
  return (
    param.ctx === 0 &&
    typeof param.guid === 'string' &&
    /^[0-9a-f]{32}$/.test(param.guid) &&
    Array.isArray(files) &&
    Array.isArray(mids) &&
    files.every((file, i) => {
      const media = AUDIO_FILE.exec(String(file))?.[1];
      const known = MEDIA_MIDS.get(String(mids[i]));
      return media !== undefined && (known === undefined || media === known);
    })
  );
}

export function useQqMusicApi() {
  const stub = usePlatformStub<MusicuRequest>();
  /** The device's session requests, over the whole file (a session outlives a test). */
  const sessionRequests: MusicuRequest[] = [];
  useMswServer(
    qimeiHandler,
    http.post(MUSICU_URL, async ({ request }) => {
      const asked = mobileRequest(await request.json(), request.headers);
      if (!asked) return untrusted();
      const session = sessionAnswer(asked);
      if (session) {
        sessionRequests.push(asked);
        return session;
      }
      stub.requests.push(asked);
      const { module, method, param } = asked.req_0;
      const key = `${module}.${method}`;
      return stub.reply(
        key,
        asked,
        () => {
          const fixture = defaultFixture(key, param);
          return fixture ? HttpResponse.json(answerFixture(fixture)) : untrusted();
        },
        () => (paramsHaveShape(key, param) ? undefined : untrusted()),
      );
    }),
  );
  return {
    requests: stub.requests,
    sessionRequests,
    /** Answers `module.method` with this body (or Response) until the test ends. */
    answer: stub.answer,
  };
}

/** A lyric text as `GetPlayLyricInfo` sends it with `crypt: 1`: deflated, zero-padded, encrypted, hex. */
export function encryptedLyric(text: string): string {
  if (text === '') return '';
  const deflated = deflateSync(Buffer.from(text, 'utf8'));
  const padded = Buffer.concat([deflated, Buffer.alloc((8 - (deflated.length % 8)) % 8)]);
  return qrcTripleDes(padded, 'encrypt').toString('hex').toUpperCase();
}

/** A musicu envelope whose request failed with this `req_0.code`. */
export const failedWith = (code: number) => ({ code: 0, req_0: { code, data: {} } });
