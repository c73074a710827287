/**
 * Defect 11 of issue 22: a TS3 server puts a client whose default channel it does not have into its own
 * default channel without a word. Against the TS3 test server (channels Lobby (default), Music with a
 * password, Music/Quiet), the bot's status names the channel it is actually in (as the server sees it)
 * and, when the configured one does not exist, names that too; the start receipt says so, in the
 * caller's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

const NICKNAME = 'Channel Bot';
let app: VoiceApp;

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Channel Bot', nickname: NICKNAME });
});
afterAll(() => app?.close());

const id = () => ({ params: { path: { id: app.botId } } });

async function configure(channel: { defaultChannel?: string; channelId?: string }) {
  const put = await app.admin.api.PUT('/api/bot/{id}', {
    ...id(),
    body: { defaultChannel: '', channelId: '', ...channel },
  });
  expect(put.response.status).toBe(200);
}

async function start(language: 'en' | 'zh' = 'en') {
  const started = await app.admin.api.POST('/api/bot/{id}/start', {
    ...id(),
    headers: { 'accept-language': language },
  });
  expect(started.response.status).toBe(200);
  return started.data!;
}

/** Disconnects, and waits until the server has let the bot's client go too. */
async function stop() {
  expect((await app.admin.api.POST('/api/bot/{id}/stop', id())).response.status).toBe(200);
  await expect.poll(() => app.server.clientByName(NICKNAME)).toBeUndefined();
}

/** The channel the test server has the bot in. */
const serverChannelOfBot = () => {
  const client = app.server.clientByName(NICKNAME);
  return client && app.server.channels.get(client.channelId);
};

describe('the channel the bot actually joined', () => {
  it('names the missing channel and the default one joined instead, in the status and the receipt', async () => {
    await configure({ defaultChannel: 'Nowhere' });
    const started = await start();
    expect(serverChannelOfBot()?.name).toBe('Lobby');
    expect(started.channel).toEqual({ id: serverChannelOfBot()!.id, name: 'Lobby', missing: 'Nowhere' });
    expect(started).toMatchObject({
      connected: true,
      message: 'Connected. Channel Nowhere does not exist; joined Lobby.',
      code: 'started',
      more: [{ code: 'channelMissing', params: { requested: 'Nowhere', joined: 'Lobby' } }],
    });
    const status = await app.admin.api.GET('/api/bot/{id}', id());
    expect(status.data?.channel).toEqual(started.channel);
    await stop();
    expect((await app.admin.api.GET('/api/bot/{id}', id())).data?.channel).toBeUndefined();
  });

  it('words the receipt in Chinese for a channel id the server does not have', async () => {
    await configure({ channelId: '99' });
    const started = await start('zh');
    expect(started.channel).toMatchObject({ name: 'Lobby', missing: '99' });
    expect(started.message).toMatch(/^已连接。\s*频道 99 不存在，已进入 Lobby。$/);
    await stop();
  });

  it('says nothing more when the configured channel is the one joined', async () => {
    await configure({ defaultChannel: 'Music/Quiet' });
    const started = await start();
    expect(serverChannelOfBot()?.name).toBe('Quiet');
    expect(started.channel).toEqual({ id: serverChannelOfBot()!.id, name: 'Quiet' });
    expect(started).toMatchObject({ message: 'Connected.', code: 'started' });
    expect(started.more).toBeUndefined();
    await stop();
  });
});
