/**
 * weapi (shared/sources/netease/weapi.ts) with its random secret pinned, so a NetEase stand-in can
 * decrypt each request's payload (tests/helpers/weapi-form.ts). The test file keeps its own `vi.mock`
 * of weapi.ts and hands the real module here, importing this helper inside the factory (the factory
 * runs before the file's own imports are ready; this module must not import weapi.ts itself):
 *
 *   const SECRET = vi.hoisted(() => 'Pinned16Letters!');
 *   vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) =>
 *     (await import('../helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
 *   );
 */
import type * as Weapi from '../../shared/sources/netease/weapi';

type WeapiModule = typeof Weapi;

export function weapiPinnedTo(secret: string, real: WeapiModule): WeapiModule {
  return { ...real, weapi: (payload: object) => real.weapi(payload, secret) };
}
