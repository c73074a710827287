/**
 * A song's lyrics from Kugou's lyric service, in two steps: search the song's lyric candidates by its
 * hash, then download the best one, as KRC (Kugou's encrypted word-timed format, decoded by krc.ts)
 * or, when asked with `fmt=lrc`, as plain LRC. Both answers carry their own `status` (200 = fine).
 *
 * Requests from MakcRe/KuGouMusicApi (module/search_lyric.js: `/v1/search` with only its own parameters
 * `album_audio_id`, `appid`, `clientver`, `duration`, `hash`, `keyword`, `lrctxt`, `man`;
 * module/lyric.js: `/download` with `ver`, `client`, `id`, `accesskey`, `fmt`, `charset`, and
 * `contenttype` ≠ 0 meaning plain text).
 */
import { err, ok, type Result } from '../../result';
import { mergeLyrics } from '../lrc';
import { decryptKrc, krcToLrc } from './krc';
import { type KugouClient, LYRICS_ORIGIN } from './kugou-client';
import { LyricDownloadSchema, LyricSearchSchema } from './kugou-schemas';
import { APP_ID, CLIENT_VERSION } from './kugou-signing';

export type LyricFormat = 'krc' | 'lrc';
const OK_STATUS = 200;
const KRC_CONTENT = 0;

/** The LRC text of the song with this hash; undefined when Kugou has no lyrics for it. */
export async function fetchLyrics(
  client: KugouClient,
  hash: string,
  format: LyricFormat,
): Promise<Result<string | undefined>> {
  const found = await client.fetch({
    origin: LYRICS_ORIGIN,
    path: '/v1/search',
    bare: true,
    query: {
      album_audio_id: 0,
      appid: APP_ID,
      clientver: CLIENT_VERSION,
      duration: 0,
      hash,
      keyword: '',
      lrctxt: 1,
      man: 'no',
    },
  });
  if (!found.ok) return found;
  const search = LyricSearchSchema.safeParse(found.value);
  if (!search.success || search.data.status !== OK_STATUS)
    return err('Kugou Music could not search for the lyrics');
  const candidate = search.data.candidates[0];
  if (!candidate) return ok(undefined);
  const downloaded = await client.fetch({
    origin: LYRICS_ORIGIN,
    path: '/download',
    query: {
      ver: 1,
      client: 'android',
      id: candidate.id,
      accesskey: candidate.accesskey,
      fmt: format,
      charset: 'utf8',
    },
  });
  if (!downloaded.ok) return downloaded;
  const lyric = LyricDownloadSchema.safeParse(downloaded.value);
  if (!lyric.success || lyric.data.status !== OK_STATUS) return err('Kugou Music could not send the lyrics');
  const { content, fmt, contenttype } = lyric.data;
  if (content === '') return ok(undefined);
  if (fmt === 'lrc' || contenttype !== KRC_CONTENT)
    return ok(mergeLyrics(Buffer.from(content, 'base64').toString('utf8')));
  const krc = decryptKrc(content);
  return krc === undefined ? err('Kugou Music sent lyrics that could not be decoded') : ok(krcToLrc(krc));
}
