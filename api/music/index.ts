/** /api/music: searching and browsing the sources this build has catalogs for. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { searchMusic } from '../../openapi/routes/music';
import type { AppEnv } from '../env';
import { validationHook } from '../errors';
import type { SongFinder } from '../player/find-songs';

export const SEARCH_DEFAULT_LIMIT = 20;

export function musicRoutes(finder: SongFinder) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(searchMusic, async (c) => {
    const { q, platform, limit = SEARCH_DEFAULT_LIMIT, offset = 0 } = c.req.valid('query');
    return c.json({ songs: await finder.search(q, platform, limit, offset), albums: [], playlists: [] }, 200);
  });
}
