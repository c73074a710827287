/**
 * Generated from the module list (shared/sources/platform-modules.ts) by `make openapi`
 * (scripts/platform-lists.ts); do not edit. In the list's order:
 * each platform's facts, the registry's rows (shared/domain/platforms.ts).
 */
import { NETEASE_FACTS } from '../sources/netease/netease-facts';
import { QQ_MUSIC_FACTS } from '../sources/qq-music/qq-music-facts';
import { BILIBILI_FACTS } from '../sources/bilibili/bilibili-facts';
import { YOUTUBE_FACTS } from '../sources/youtube/youtube-facts';
import { KUGOU_FACTS } from '../sources/kugou/kugou-facts';
import { JELLYFIN_FACTS } from '../sources/jellyfin/jellyfin-facts';
import { LOCAL_FACTS } from '../sources/local/local-facts';
import { SPOTIFY_FACTS } from '../sources/spotify/spotify-facts';
import { STREAM_FACTS } from '../sources/stream/stream-facts';

export const PLATFORM_ROWS = [NETEASE_FACTS, QQ_MUSIC_FACTS, BILIBILI_FACTS, YOUTUBE_FACTS, KUGOU_FACTS, JELLYFIN_FACTS, LOCAL_FACTS, SPOTIFY_FACTS, STREAM_FACTS] as const;
