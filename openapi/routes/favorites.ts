/** Favorite playlists (SPEC.md "Favorites: /api/favorites"): per user, never for guests. */
import { z } from '@hono/zod-openapi';
import { PlatformSchema } from '../../shared/domain/schemas';
import { errors, jsonBody, jsonResponse } from '../errors';
import { defineRoute } from '../policy';
import { IdParamSchema, SuccessSchema, TimestampSchema } from './common';

export const FavoriteSchema = z
  .object({
    id: z.string(),
    platform: PlatformSchema,
    playlistId: z.string(),
    name: z.string(),
    coverUrl: z.string(),
    songCount: z.number().int(),
    createdAt: TimestampSchema,
  })
  .openapi('Favorite');

const tags = ['Favorites'];
const policy = { access: 'authenticated', nonGuest: true } as const;
const playlistId = z
  .string({ error: 'playlistId must be given once, as text' })
  .trim()
  .min(1, 'playlistId must not be empty')
  .max(200);

export const listFavorites = defineRoute({
  method: 'get',
  path: '/api/favorites',
  tags,
  summary: 'Your favorite playlists, newest first',
  policy,
  responses: {
    200: jsonResponse(z.object({ favorites: z.array(FavoriteSchema) }).openapi('FavoriteList'), 'Favorites'),
    ...errors(401, 403),
  },
});

export const addFavorite = defineRoute({
  method: 'post',
  path: '/api/favorites',
  tags,
  summary: 'Add a playlist to your favorites',
  description: 'A playlist already in your favorites (same platform and id) is a 409.',
  policy,
  request: {
    body: jsonBody(
      z.strictObject({
        platform: PlatformSchema,
        playlistId,
        name: z.string().trim().min(1, 'name must not be empty').max(200),
        coverUrl: z.string().max(2048).optional(),
        songCount: z.number().int().min(0).max(1_000_000).optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(SuccessSchema, 'Added'),
    ...errors(400, 401, 403, 409),
  },
});

export const checkFavorite = defineRoute({
  method: 'get',
  path: '/api/favorites/check',
  tags,
  summary: 'Whether a playlist is in your favorites',
  description: 'Each query parameter must be given once.',
  policy,
  request: {
    query: z.object({
      platform: PlatformSchema,
      playlistId,
    }),
  },
  responses: {
    200: jsonResponse(z.object({ favorited: z.boolean() }).openapi('FavoriteCheck'), 'Answer'),
    ...errors(400, 401, 403),
  },
});

export const deleteFavorite = defineRoute({
  method: 'delete',
  path: '/api/favorites/{id}',
  tags,
  summary: 'Remove one of your favorites',
  description: "Another user's favorite reads as absent (404).",
  policy,
  request: { params: IdParamSchema },
  responses: {
    200: jsonResponse(SuccessSchema, 'Removed'),
    ...errors(401, 403, 404),
  },
});
