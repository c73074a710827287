/**
 * A video's details with all its parts, by BV id or `av` number (`/x/web-interface/view`), shared by
 * the catalog (songs, parts) and the source (which needs the part's `cid` at play time). A video that
 * does not exist or that no one else may see is ok(undefined).
 *
 * Request and answer shape from SocialSisterYi/bilibili-API-collect (docs/video/info.md).
 */
import type { Result } from '../../result';
import type { BilibiliClient } from './bilibili-client';
import { UNKNOWN_VIDEO_CODES } from './bilibili-errors';
import { type ViewData, ViewDataSchema } from './bilibili-schemas';
import type { QueryParams } from './wbi';

export function fetchView(client: BilibiliClient, video: QueryParams): Promise<Result<ViewData | undefined>> {
  return client.find(
    { path: '/x/web-interface/view', params: video, what: 'the video' },
    ViewDataSchema,
    UNKNOWN_VIDEO_CODES,
  );
}
