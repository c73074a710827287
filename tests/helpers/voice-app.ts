/**
 * The real app and daemon next to a fresh TS3 test server, with the first admin signed in and one bot
 * pointed at the server (not started): the set-up of every REST test that needs a voice connection.
 */
import { afterAll, beforeAll } from 'vitest';
import { parseLicenseRoot } from '../../daemon/ts3';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { type AudioCdn, startAudioCdn } from './audio-cdn';

export interface VoiceApp {
  server: Ts3TestServer;
  t: TestApp;
  admin: Session;
  botId: string;
  close(): Promise<void>;
}

/** `env`: configuration on top of the test app's (e.g. which decoder the bots run). */
export async function startVoiceApp(
  bot: { name: string; nickname: string },
  env: Record<string, string> = {},
): Promise<VoiceApp> {
  const server = await Ts3TestServer.start();
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  const t = await startTestApp({ ts3: { licenseRoot: root.value }, env });
  const admin = await setupAdmin(t);
  const created = await admin.api.POST('/api/bot', {
    body: { ...bot, serverAddress: '127.0.0.1', serverPort: server.port },
  });
  if (!created.data) throw new Error(`could not create the bot: ${JSON.stringify(created.error)}`);
  return {
    server,
    t,
    admin,
    botId: created.data.id,
    async close() {
      await t.close();
      await server.close();
    },
  };
}

/** A voice app and the loopback audio CDN serving the platform songs its bot plays. */
export interface VoicePlayback {
  readonly app: VoiceApp;
  readonly cdn: AudioCdn;
}

/**
 * Starts a voice app and an audio CDN before a test file's tests and closes both after. Registered
 * at the file's top, its hook runs before the file's own `beforeAll`, which may read both.
 */
export function useVoicePlayback(
  bot: { name: string; nickname: string },
  cdnOptions: { tls?: boolean } = {},
): VoicePlayback {
  let app: VoiceApp | undefined;
  let cdn: AudioCdn | undefined;
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the voice app and audio CDN start in beforeAll');
    return value;
  };
  beforeAll(async () => {
    cdn = await startAudioCdn(undefined, undefined, cdnOptions);
    app = await startVoiceApp(bot);
  });
  afterAll(async () => {
    await app?.close();
    await cdn?.close();
  });
  return {
    get app() {
      return started(app);
    },
    get cdn() {
      return started(cdn);
    },
  };
}
