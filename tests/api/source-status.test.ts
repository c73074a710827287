/**
 * GET /api/music/sources/status through the real app, with the platforms' addresses stood in by msw:
 * NetEase answers its probe, QQ Music's probe is a network error. Each enabled platform gets one entry
 * (reachable, logged in where it has logins, the error in words), disabled ones none; the answers are
 * kept for a while (a second call probes nothing); members are refused.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { PLATFORM_REGISTRY } from '../../shared/domain/platforms';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { useMswServer } from '../helpers/msw-server';

const probes = { music_a: 0, music_b: 0 };
useMswServer(
  http.head(PLATFORM_REGISTRY.music_a.probeUrl, () => {
    probes.music_a++;
    // Any answer is one: the probe asks whether the service can be reached, not whether it likes HEAD.
    return new HttpResponse(null, { status: 405 });
  }),
  http.head(PLATFORM_REGISTRY.music_b.probeUrl, () => {
    probes.music_b++;
    return HttpResponse.error();
  }),
);

let t: TestApp;
let admin: Session;
withAdminApp(async (app, session) => {
  t = app;
  admin = session;
  const saved = await admin.api.POST('/api/bot/settings', {
    body: { enabledProviders: ['music_a', 'music_b'], localAudioEnabled: true },
  });
  expect(saved.response.status).toBe(200);
});

describe('GET /api/music/sources/status', () => {
  it('says per enabled platform whether it is reachable and logged in, and what went wrong in words', async () => {
    const { data, response } = await admin.api.GET('/api/music/sources/status');
    expect(response.status).toBe(200);
    expect(data).toEqual({
      sources: [
        // Reached, and without a stored login NetEase is not logged in.
        { platform: 'music_a', reachable: true, loggedIn: false },
        { platform: 'music_b', reachable: false, error: 'QQ Music could not be reached from this server' },
        // Uploaded files are on this server: reachable, and they have no login to report.
        { platform: 'local', reachable: true },
      ],
    });
    expect(probes).toEqual({ music_a: 1, music_b: 1 });
  });

  it('keeps the answers for a while: asking again probes no platform', async () => {
    const again = await admin.api.GET('/api/music/sources/status');
    expect(again.data?.sources.map((s) => s.reachable)).toEqual([true, false, true]);
    expect(probes).toEqual({ music_a: 1, music_b: 1 });
  });

  it('is for admins only', async () => {
    const member = await createMember(t, admin, { capabilities: ['player.control', 'platform.auth'] });
    const { response, error } = await member.api.GET('/api/music/sources/status');
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ error: expect.any(String) });
  });
});
