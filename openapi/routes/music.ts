/** Music data routes (SPEC.md "Music data: /api/music"). */
import { z } from '@hono/zod-openapi';
import { AlbumSchema, PlatformSchema, PlaylistSchema, SongSchema } from '../../shared/domain/schemas';
import { errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';

const text = (name: string) =>
  z
    .string({ error: `${name} must be given once, as text` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(200);

export const searchMusic = defineRoute({
  method: 'get',
  path: '/api/music/search',
  tags: ['Music'],
  summary: 'Search one platform (the default source when none is given)',
  description: 'A disabled source is a 400; a source this build has no catalog for is a 501.',
  policy: { access: 'authenticated' },
  request: {
    query: z.object({
      q: text('q'),
      platform: PlatformSchema.optional(),
      limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'Default 20' }),
      offset: z.coerce.number().int().min(0).optional().openapi({ description: 'Default 0' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          songs: z.array(SongSchema),
          albums: z.array(AlbumSchema),
          playlists: z.array(PlaylistSchema),
        })
        .openapi('SearchResults'),
      'Results',
    ),
    ...errors(400, 401, 501, 502),
  },
});
