/**
 * One song's details by its hash, shared by the catalog (song look-up) and the source (which needs the
 * song's files at each quality and its VIP mark at play time): `/v2/get_res_privilege/lite` on the
 * media store answers the song with its name, album, cover and the other qualities' files
 * (`relate_goods`). An unknown hash comes back without a name.
 *
 * Request from MakcRe/KuGouMusicApi (module/privilege_lite.js: `resource[]` of `{type, page_id, hash,
 * album_id}`, the `qualities` list, router `media.store.kugou.com`).
 */
import { ok, type Result } from '../../result';
import { GATEWAY_ORIGIN, type KugouClient } from './kugou-client';
import type { KugouDevice } from './kugou-login';
import { PrivilegeDataSchema, type PrivilegeItem } from './kugou-schemas';
import { APP_ID, CLIENT_VERSION } from './kugou-signing';
import { isKugouHash } from './kugou-tracks';

const QUALITIES_ASKED = [
  '128',
  '320',
  'flac',
  'high',
  'viper_atmos',
  'viper_tape',
  'viper_clear',
  'super',
  'multitrack',
];

export async function fetchPrivilege(
  client: KugouClient,
  hash: string,
  as?: KugouDevice,
): Promise<Result<PrivilegeItem | undefined>> {
  if (!isKugouHash(hash)) return ok(undefined);
  const answer = await client.call(
    {
      origin: GATEWAY_ORIGIN,
      path: '/v2/get_res_privilege/lite',
      router: 'media.store.kugou.com',
      body: {
        appid: APP_ID,
        area_code: 1,
        behavior: 'play',
        clientver: CLIENT_VERSION,
        need_hash_offset: 1,
        relate: 1,
        support_verify: 1,
        resource: [{ type: 'audio', page_id: 0, hash, album_id: 0 }],
        qualities: QUALITIES_ASKED,
      },
    },
    PrivilegeDataSchema,
    as,
  );
  if (!answer.ok) return answer;
  const wanted = hash.toLowerCase();
  return ok(answer.value.find((item) => item.hash.toLowerCase() === wanted && item.name !== ''));
}
