/**
 * Music platforms misbehaving, through the real app: the msw stand-ins of NetEase (music_a), QQ Music
 * (music_b), Kugou (music_c) and Bilibili (video_a) answer their search with garbage JSON, a cut-off
 * body, an HTML error page, a 429, a 503, a dropped connection, or nothing at all. Every search
 * answers a clear 502 `{error}` naming the platform and what went wrong — never a 500 —, a platform
 * that never answers is given up on at the HTTP deadline, and the all-sources search leaves the broken
 * ones out and answers 200 on its own deadline.
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../shared/domain/constants';
import { type Session, withAdminApp } from '../../testkit/accounts';
import { useBilibiliApi } from '../helpers/bilibili-api';
import { useKugouApi } from '../helpers/kugou-api';
import { useNeteaseApi } from '../helpers/netease-api';
import type { Answer } from '../helpers/platform-stub';
import { useQqMusicApi } from '../helpers/qq-music-api';
import { useFaultTally } from './fault-tally';

const tally = useFaultTally('faults-platform');
const stubs = {
  music_a: { stub: useNeteaseApi(), search: '/eapi/cloudsearch/pc', name: 'NetEase' },
  music_b: {
    stub: useQqMusicApi(),
    search: 'music.search.SearchCgiService.DoSearchForQQMusicMobile',
    name: 'QQ Music',
  },
  music_c: { stub: useKugouApi(), search: '/v3/search/song', name: 'Kugou' },
  video_a: { stub: useBilibiliApi(), search: '/x/web-interface/wbi/search/type', name: 'Bilibili' },
} satisfies Partial<
  Record<Platform, { stub: { answer(key: string, body: Answer<never>): void }; search: string; name: string }>
>;
type BrokenPlatform = keyof typeof stubs;
const PLATFORMS = Object.keys(stubs) as BrokenPlatform[];

let admin: Session;
withAdminApp((_, session) => {
  admin = session;
});

/** Answers every platform's search with what `fault` makes, until the test ends. */
function breakSearch(fault: () => Response | Promise<Response>): void {
  for (const platform of PLATFORMS) {
    const { stub, search } = stubs[platform];
    stub.answer(search, fault);
    tally.injected();
  }
}

async function search(platform: BrokenPlatform) {
  const { response, error } = await admin.api.GET('/api/music/search', {
    params: { query: { q: 'faults', platform } },
  });
  tally.answered(response.status, [502]);
  return { status: response.status, error };
}

/** Each platform's search answers 502 with a sentence that names the platform and matches `reason`. */
async function expectClear502(reason: RegExp): Promise<void> {
  const answers = await Promise.all(
    PLATFORMS.map(async (platform) => [platform, await search(platform)] as const),
  );
  for (const [platform, answer] of answers) {
    expect({ platform, ...answer }).toEqual({
      platform,
      status: 502,
      error: expect.objectContaining({
        error: expect.stringMatching(
          new RegExp(`^${platform}: ${stubs[platform].name}.*${reason.source}`, 'i'),
        ),
      }),
    });
  }
}

describe('a platform answering nonsense', () => {
  it('garbage JSON (the right status, the wrong shapes) is a 502 saying the answer was not understood', async () => {
    breakSearch(() =>
      HttpResponse.json({ code: 200, status: 1, result: { songs: 'many' }, data: [null], req_0: 7 }),
    );
    // Bilibili's envelope carries its own verdict: a code that is not 0 is its refusal.
    await expectClear502(/unexpected shape|refused search/);
  });

  it('a cut-off JSON body is a 502 saying it is not JSON', async () => {
    breakSearch(
      () =>
        new HttpResponse('{"code":200,"result":{"songs":[{"id":1901', {
          headers: { 'content-type': 'application/json' },
        }),
    );
    await expectClear502(/not JSON/);
  });

  it('an HTML error page is a 502 saying it is not JSON', async () => {
    breakSearch(
      () =>
        new HttpResponse(
          '<!DOCTYPE html><html><body><h1>503 Service Temporarily Unavailable</h1></body></html>',
          {
            headers: { 'content-type': 'text/html' },
          },
        ),
    );
    await expectClear502(/not JSON/);
  });
});

describe('a platform refusing or failing', () => {
  it('a 429 is a 502 saying the platform is limiting requests', async () => {
    breakSearch(
      () => new HttpResponse('Too Many Requests', { status: 429, headers: { 'retry-after': '30' } }),
    );
    await expectClear502(/limiting requests/);
  });

  it('a 503 is a 502 naming the HTTP status', async () => {
    breakSearch(() => new HttpResponse('upstream down', { status: 503 }));
    await expectClear502(/HTTP 503/);
  });

  it('a dropped connection is a 502 saying it could not be reached', async () => {
    breakSearch(() => HttpResponse.error());
    await expectClear502(/could not be reached/);
  });
});

describe('a platform that never answers', () => {
  it('is given up on at the HTTP deadline with a 502 saying so; the all-sources search leaves it out', async () => {
    breakSearch(() => new Promise<Response>(() => undefined));
    const [, all] = await Promise.all([
      expectClear502(/did not answer within \d+ s/),
      admin.api.GET('/api/music/search/all', { params: { query: { q: 'faults' } } }),
    ]);
    expect(tally.answered(all.response.status)).toBe(200);
    expect(all.data?.songs.filter((song) => PLATFORMS.includes(song.platform as BrokenPlatform))).toEqual([]);
  }, 40_000);
});
