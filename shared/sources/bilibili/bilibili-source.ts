/**
 * The `video_a` source at play time: finds the part's `cid` with `view`, asks the signed
 * `/x/player/wbi/playurl` for DASH streams and plays the audio stream with the highest bandwidth
 * (the AAC ones in `dash.audio`; when lossless is asked for, also Hi-Res FLAC in `dash.flac.audio` and
 * Dolby in `dash.dolby.audio`, which only a paying login gets). Old videos without DASH fall back to
 * their MP4 (`durl`), which ffmpeg reads the audio from. The CDN refuses requests without the site's
 * Referer, so it travels with the URL. The same answer's `volume`, where Bilibili has measured the
 * video, is its loudness (bilibili-loudness.ts).
 *
 * Shapes from SocialSisterYi/bilibili-API-collect (docs/video/videostream_url.md: `fnval` bits — 16
 * DASH, 256 Dolby audio — and the audio ids 30216/30232/30280 for AAC, 30250 Dolby, 30251 Hi-Res);
 * asking for every DASH bit (4048) to get the FLAC stream, as many public clients do.
 */
import type { Quality } from '../../domain/constants';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import { BILIBILI_REFERER, type BilibiliClient } from './bilibili-client';
import { SERVICE } from './bilibili-errors';
import { bilibiliLoudness } from './bilibili-loudness';
import { type DashAudio, type PlayUrlData, PlayUrlDataSchema } from './bilibili-schemas';
import { parseSongId } from './video-ids';
import { fetchView } from './video-view';

const DASH = 16;
const EVERY_DASH_FEATURE = 4048;
const LOSSLESS_QUALITIES: readonly Quality[] = ['lossless', 'hires', 'master'];

export class BilibiliSource implements MusicSource {
  readonly platform = 'video_a' as const;

  constructor(private readonly client: BilibiliClient) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const ref = parseSongId(song.id);
    if (!ref) return err(`${song.id} is not a ${SERVICE} video id`);
    const view = await fetchView(this.client, { bvid: ref.bvid });
    if (!view.ok) return view;
    if (!view.value) return err(`${SERVICE} does not know the video ${ref.bvid}`);
    const { title, pages } = view.value;
    const page = ref.part === undefined ? pages[0] : pages.find((p) => p.page === ref.part);
    if (!page) return err(`${title} has no part ${ref.part ?? 1} on ${SERVICE}`);
    const lossless = song.quality !== undefined && LOSSLESS_QUALITIES.includes(song.quality);
    const streams = await this.client.call(
      {
        path: '/x/player/wbi/playurl',
        params: { bvid: ref.bvid, cid: page.cid, fnval: lossless ? EVERY_DASH_FEATURE : DASH },
        what: 'the audio stream',
        signed: true,
      },
      PlayUrlDataSchema,
    );
    if (!streams.ok) return streams;
    const url = audioUrl(streams.value, lossless);
    if (!url) return err(`${SERVICE} gave no audio for ${title}`);
    const loudness = bilibiliLoudness(streams.value);
    return ok({
      input: { kind: 'url', url, headers: { referer: BILIBILI_REFERER, userAgent: BROWSER_USER_AGENT } },
      ...(loudness && { loudness }),
    });
  }
}

/** The best audio stream's URL: highest bandwidth among those the quality allows, else the MP4. */
function audioUrl({ dash, durl }: PlayUrlData, lossless: boolean): string | undefined {
  const candidates: DashAudio[] = [
    ...(dash?.audio ?? []),
    ...(lossless ? [...(dash?.dolby?.audio ?? []), ...(dash?.flac?.audio ? [dash.flac.audio] : [])] : []),
  ];
  const best = candidates.reduce<DashAudio | undefined>(
    (top, stream) => (top && top.bandwidth >= stream.bandwidth ? top : stream),
    undefined,
  );
  return best?.baseUrl ?? durl?.[0]?.url;
}
