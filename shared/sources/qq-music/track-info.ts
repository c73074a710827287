/**
 * One track's details by its `songmid`, shared by the catalog (song look-up) and the source (which
 * needs the track's media file id and pay flag at play time).
 *
 * Request shape from L-1124/QQMusicApi (qqmusic_api/modules/song.py, `query_song`:
 * `music.trackInfo.UniformRuleCtrl`/`CgiGetTrackInfo` with `mids`, `types`, `modify_stamp`).
 */
import { ok, type Result } from '../../result';
import type { MusicuClient } from './musicu-client';
import type { QqLogin } from './qq-music-login';
import { type Track, TrackInfoDataSchema } from './qq-music-schemas';

export async function fetchTrack(
  client: MusicuClient,
  mid: string,
  login?: QqLogin,
): Promise<Result<Track | undefined>> {
  const answer = await client.call(
    {
      module: 'music.trackInfo.UniformRuleCtrl',
      method: 'CgiGetTrackInfo',
      param: { mids: [mid], types: [0], modify_stamp: [0], ctx: 0, client: 1 },
    },
    TrackInfoDataSchema,
    login,
  );
  // An unknown mid comes back as a placeholder track with another (empty) mid.
  return answer.ok ? ok(answer.value.tracks.find((t) => t.mid === mid)) : answer;
}
