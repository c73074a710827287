/**
 * The stored bots a listing shows, oldest first, with what a bot no daemon answers for is shown with
 * (offlineStatus), and no other column: the identity, passwords and profile of a bot are never read
 * for a list. One prepared read, given again while the database is unchanged
 * (api/access/prepared-json-read.ts).
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../shared/db/client';
import { bots } from '../../shared/db/schema';
import { PlayModeSchema } from '../../shared/domain/schemas';
import { prepareJsonRead } from '../access/prepared-json-read';

const ListedBotSchema = z.object({
  id: z.string(),
  name: z.string(),
  volume: z.number(),
  playMode: PlayModeSchema,
});
export type ListedBot = z.infer<typeof ListedBotSchema>;

const ListedBotsSchema = z.array(ListedBotSchema);

export type StoredBots = () => Promise<readonly ListedBot[]>;

export function storedBots(db: Db): StoredBots {
  const read = prepareJsonRead(
    db,
    db
      .select({
        row: sql<string>`json_group_array(json_object('id', ${bots.id}, 'name', ${bots.name},
        'volume', ${bots.volume}, 'playMode', ${bots.playMode}) ORDER BY ${bots.createdAt}, rowid)`,
      })
      .from(bots),
    (text) => {
      const parsed = ListedBotsSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(`the stored bots are unreadable: ${parsed.error.message}`);
      return parsed.data;
    },
  );
  return async () => (await read()) ?? [];
}
