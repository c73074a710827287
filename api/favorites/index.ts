/** /api/favorites: each account's favorite playlists. Another account's favorite reads as absent. */
import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { and, desc, eq } from 'drizzle-orm';
import { addFavorite, checkFavorite, deleteFavorite, listFavorites } from '../../openapi/routes/favorites';
import { favorites } from '../../shared/db/schema';
import { type Principal, principalOf } from '../access/principal';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';

type FavoriteRow = typeof favorites.$inferSelect;

const publicFavorite = (row: FavoriteRow) => ({
  id: row.id,
  platform: row.platform,
  playlistId: row.playlistId,
  name: row.name,
  coverUrl: row.coverUrl,
  songCount: row.songCount,
  createdAt: row.createdAt.toISOString(),
});

/** Favorites are stored per account; the chat service acts for voice-server users, who have none. */
function ownerOf(principal: Principal): string {
  if (principal.credential.kind === 'service') throw new ApiError(403, 'favorites belong to accounts');
  return principal.userId;
}

export function favoriteRoutes({ db }: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listFavorites, async (c) => {
      const rows = await db
        .select()
        .from(favorites)
        .where(eq(favorites.userId, ownerOf(principalOf(c))))
        .orderBy(desc(favorites.createdAt));
      return c.json({ favorites: rows.map(publicFavorite) }, 200);
    })

    .openapi(addFavorite, async (c) => {
      const { platform, playlistId, name, coverUrl, songCount } = c.req.valid('json');
      const inserted = await db
        .insert(favorites)
        .values({
          id: randomUUID(),
          userId: ownerOf(principalOf(c)),
          platform,
          playlistId,
          name,
          coverUrl: coverUrl ?? '',
          songCount: songCount ?? 0,
          createdAt: new Date(),
        })
        // The unique (user, platform, playlist) index decides duplicates, so two racing adds give one 409.
        .onConflictDoNothing();
      if (inserted.rowsAffected === 0) throw new ApiError(409, 'this playlist is already a favorite');
      return c.json({ success: true as const }, 200);
    })

    .openapi(checkFavorite, async (c) => {
      const { platform, playlistId } = c.req.valid('query');
      const row = await db.query.favorites.findFirst({
        columns: { id: true },
        where: and(
          eq(favorites.userId, ownerOf(principalOf(c))),
          eq(favorites.platform, platform),
          eq(favorites.playlistId, playlistId),
        ),
      });
      return c.json({ favorited: row !== undefined }, 200);
    })

    .openapi(deleteFavorite, async (c) => {
      const deleted = await db
        .delete(favorites)
        .where(and(eq(favorites.id, c.req.valid('param').id), eq(favorites.userId, ownerOf(principalOf(c)))));
      if (deleted.rowsAffected === 0) throw new ApiError(404, 'favorite not found');
      return c.json({ success: true as const }, 200);
    });
}
