import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../env';
import {
  forwardedClientAddress,
  type ProxyTrust,
  parseForwarded,
  publicOrigin,
  requestHost,
  requestProto,
} from './client-view';

const TRUSTED: ProxyTrust = { trustProxy: true, publicUrl: null };
const DIRECT: ProxyTrust = { trustProxy: false, publicUrl: null };

/** What each function says about a request to http://10.0.0.5:3001/ with these headers. */
async function seen(trust: ProxyTrust, headers: Record<string, string>) {
  const app = new Hono<AppEnv>().get('/', (c) =>
    c.json({
      proto: requestProto(c, trust),
      host: requestHost(c, trust),
      client: forwardedClientAddress(c, trust) ?? null,
      origin: publicOrigin(c, trust, '/music-bot'),
    }),
  );
  const res = await app.request('http://10.0.0.5:3001/', { headers: { host: '10.0.0.5:3001', ...headers } });
  return res.json();
}

describe('the address the browser used', () => {
  it('parses the first element of Forwarded, quoted or not, any case', () => {
    expect(
      parseForwarded('For="[2001:db8::1]:4711";Proto=https;Host="a.example:8443", for=198.51.100.1'),
    ).toEqual({ for: '[2001:db8::1]:4711', proto: 'https', host: 'a.example:8443' });
    expect(parseForwarded(undefined)).toEqual({});
    expect(parseForwarded('garbage;;=x')).toEqual({});
  });

  it('reads a trusted proxy: Forwarded first, then X-Forwarded-* with X-Forwarded-Port', async () => {
    expect(
      await seen(TRUSTED, { forwarded: 'for=192.0.2.43:47011;proto=https;host=a.example:8443' }),
    ).toEqual({
      proto: 'https',
      host: 'a.example:8443',
      client: '192.0.2.43',
      origin: 'https://a.example:8443/music-bot',
    });
    expect(
      await seen(TRUSTED, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'A.Example, proxy.internal',
        'x-forwarded-port': '8443',
        'x-forwarded-for': '198.51.100.7, 10.0.0.1',
      }),
    ).toEqual({
      proto: 'https',
      host: 'a.example:8443',
      client: '198.51.100.7',
      origin: 'https://a.example:8443/music-bot',
    });
    expect(
      await seen(TRUSTED, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'a.example',
        'x-forwarded-port': '443',
      }),
    ).toMatchObject({ host: 'a.example' });
  });

  it('ignores every forwarded header without a trusted proxy', async () => {
    expect(
      await seen(DIRECT, {
        forwarded: 'for=192.0.2.43;proto=https;host=evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-for': '192.0.2.1',
      }),
    ).toEqual({
      proto: 'http',
      host: '10.0.0.5:3001',
      client: null,
      origin: 'http://10.0.0.5:3001/music-bot',
    });
  });

  it('starts absolute links from PUBLIC_URL when it is set', async () => {
    const published = { trustProxy: true, publicUrl: 'https://music.example.org/bot/' };
    expect(await seen(published, { 'x-forwarded-host': 'other.example' })).toMatchObject({
      origin: 'https://music.example.org/bot',
    });
  });
});
