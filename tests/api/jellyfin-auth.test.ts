/**
 * POST /api/auth/jellyfin/test through the api, against an msw stand-in for a Jellyfin server: the
 * stored `jellyfin` settings are the fallback, a refusal is an answer in words, and nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { WRONG_PASSWORD } from '../../shared/sources/jellyfin/jellyfin-login';
import { type Session, withAdminApp } from '../../testkit/accounts';
import { ALICE_LOGIN, useJellyfinApi } from '../helpers/jellyfin-api';

useJellyfinApi();
let admin: Session;
withAdminApp((_, session) => {
  admin = session;
});

describe('POST /api/auth/jellyfin/test', () => {
  it('tests the stored server and login when the body is empty', async () => {
    await admin.api.POST('/api/bot/settings', { body: { jellyfin: ALICE_LOGIN } });
    const { data, response } = await admin.api.POST('/api/auth/jellyfin/test', { body: {} });
    expect(response.status).toBe(200);
    expect(data).toEqual({ ok: true, serverName: 'Attic Media', version: '10.10.7' });
  });

  it('answers a refused login in words, and leaves the stored settings alone', async () => {
    const { data } = await admin.api.POST('/api/auth/jellyfin/test', { body: { password: 'not it' } });
    expect(data).toEqual({ ok: false, error: WRONG_PASSWORD });
    const settings = await admin.api.GET('/api/bot/settings');
    expect(settings.data?.jellyfin).toMatchObject({ serverUrl: ALICE_LOGIN.serverUrl, hasPassword: true });
  });

  it('refuses unknown fields and a bad auth mode with 400', async () => {
    const unknown = await admin.api.POST('/api/auth/jellyfin/test', {
      body: { token: 'x' } as unknown as Record<string, never>,
    });
    expect(unknown.response.status).toBe(400);
    const mode = await admin.api.POST('/api/auth/jellyfin/test', {
      body: { authMode: 'sso' } as unknown as Record<string, never>,
    });
    expect(mode.response.status).toBe(400);
  });
});
