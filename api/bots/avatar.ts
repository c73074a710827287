/** A bot's avatar image: stored in the database, at most 200 KB, PNG/JPEG/WebP by its bytes. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { deleteBotAvatar, getBotAvatar, putBotAvatar } from '../../openapi/routes/bot-config';
import { BOTS_EVENTS } from '../../shared/bus/subjects';
import { botAvatars } from '../../shared/db/schema';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { findBot } from './find-bot';
import { sniffImageType } from './image-type';

export const AVATAR_MAX_BYTES = 200 * 1024;
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(;[\w-]+=[\w.-]+)*;base64,([A-Za-z0-9+/=\s]*)$/;

export function decodeAvatarDataUrl(dataUrl: string): {
  bytes: Buffer;
  contentType: NonNullable<ReturnType<typeof sniffImageType>>;
} {
  const match = DATA_URL.exec(dataUrl);
  if (!match) throw new ApiError(400, 'dataUrl: must be a base64 data URL');
  const bytes = Buffer.from(match[3] ?? '', 'base64');
  if (bytes.length === 0) throw new ApiError(400, 'dataUrl: the image is empty');
  if (bytes.length > AVATAR_MAX_BYTES) throw new ApiError(400, 'dataUrl: the image must be at most 200 KB');
  const contentType = sniffImageType(bytes);
  if (!contentType) throw new ApiError(400, 'dataUrl: the image must be PNG, JPEG or WebP');
  return { bytes, contentType };
}

export function botAvatarRoutes(deps: AppDeps) {
  const { db, bus } = deps;
  // The path as the browser reaches it: under BASE_PATH behind a proxy that strips a sub-path.
  const avatarPath = (botId: string) => `${deps.config.basePath}/api/bot/${botId}/avatar`;

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(getBotAvatar, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      const avatar = await db.query.botAvatars.findFirst({ where: eq(botAvatars.botId, bot.id) });
      if (!avatar) throw new ApiError(404, 'this bot has no avatar');
      return c.body(new Uint8Array(avatar.data), 200, {
        'content-type': avatar.contentType,
        'cache-control': 'no-cache',
      });
    })
    .openapi(putBotAvatar, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      const { bytes, contentType } = decodeAvatarDataUrl(c.req.valid('json').dataUrl);
      const row = { botId: bot.id, contentType, data: bytes, updatedAt: new Date() };
      await db
        .insert(botAvatars)
        .values(row)
        .onConflictDoUpdate({
          target: botAvatars.botId,
          set: { contentType, data: bytes, updatedAt: row.updatedAt },
        });
      bus.publish(BOTS_EVENTS, { type: 'botUpdated', botId: bot.id });
      return c.json({ path: avatarPath(bot.id) }, 200);
    })
    .openapi(deleteBotAvatar, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      await db.delete(botAvatars).where(eq(botAvatars.botId, bot.id));
      bus.publish(BOTS_EVENTS, { type: 'botUpdated', botId: bot.id });
      return c.body(null, 204);
    });
}
