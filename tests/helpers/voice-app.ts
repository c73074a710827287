/**
 * The real app and daemon next to a fresh TS3 test server, with the first admin signed in and one bot
 * pointed at the server (not started): the set-up of every REST test that needs a voice connection.
 */
import { parseLicenseRoot } from '../../daemon/ts3';
import { Ts3TestServer } from '../ts3-server/ts3-test-server';
import { type Session, setupAdmin } from './accounts';
import { startTestApp, type TestApp } from './test-app';

export interface VoiceApp {
  server: Ts3TestServer;
  t: TestApp;
  admin: Session;
  botId: string;
  close(): Promise<void>;
}

export async function startVoiceApp(bot: { name: string; nickname: string }): Promise<VoiceApp> {
  const server = await Ts3TestServer.start();
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  const t = await startTestApp({ ts3: { licenseRoot: root.value } });
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
