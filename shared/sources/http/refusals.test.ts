/**
 * The common refusal kinds: every builder's sentence is recognised as its kind (with or without the
 * platform's own note), the older sentences of the same meaning adapters still word are too, and
 * neither a platform that never answered nor a refusal of no common kind is taken for one.
 */
import { describe, expect, it } from 'vitest';
import { REFUSAL_KINDS, refusal, refusalKind } from './refusals';
import { timedOutSentence, unreachableSentence } from './unreachable';

const built = {
  loginNeeded: refusal.loginNeeded('Kugou Music'),
  loginExpired: refusal.loginExpired('QQ Music', 'code 1000'),
  paidOnly: refusal.paidOnly('NetEase Cloud Music', 'Paper Boats'),
  regionBlocked: refusal.regionBlocked('Spotify', 'track 4Track'),
  notFound: refusal.notFound('Jellyfin', 'song', 'abc'),
  rateLimited: refusal.rateLimited('NetEase Cloud Music', 'code 405: 操作频繁'),
  copyright: refusal.copyright('Bilibili', 'code -689'),
  tokenRefused: refusal.tokenRefused('Spotify', 'librespot: Bad credentials'),
} as const;

describe('refusal kinds', () => {
  it('recognises the sentence of every builder as its kind', () => {
    expect(Object.keys(built).sort()).toEqual([...REFUSAL_KINDS].sort());
    for (const kind of REFUSAL_KINDS) expect(refusalKind(built[kind])).toBe(kind);
  });

  it('recognises the sentences adapters word themselves for the same kinds', () => {
    expect(
      refusalKind(
        'it needs a NetEase Cloud Music VIP account, and the stored login is not one; log in with a VIP account',
      ),
    ).toBe('paidOnly');
    expect(refusalKind('YouTube has no such video any more (it was removed or never existed)')).toBe(
      'notFound',
    );
    expect(
      refusalKind('YouTube is limiting how often this server may ask, for up to an hour: try again later'),
    ).toBe('rateLimited');
    expect(refusalKind('Kugou Music has no copyright to play Harbour; no login changes that')).toBe(
      'copyright',
    );
  });

  it('takes neither an unreachable platform nor another refusal for a common kind', () => {
    for (const sentence of [
      unreachableSentence('NetEase Cloud Music', 'fetch failed'),
      timedOutSentence('QQ Music', 10),
      'NetEase Cloud Music refused /eapi/v6/playlist/detail (code 401: 无权限访问)',
      'Kugou Music answered /v5/url in an unexpected shape',
    ])
      expect(refusalKind(sentence)).toBeUndefined();
  });
});
