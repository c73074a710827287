/**
 * `!where` and `!come` (issue 40 section 2) on real parts: a bot on the TS3 test server (channels Lobby
 * (default), Music with a password, Music/Quiet) and voice clients elsewhere writing to it privately.
 * `!where` names the bot's channel; `!come` moves it into the sender's channel, is refused to people
 * outside `adminGroups` when that list is set (as the other admin-type commands), and says so when the
 * server does not let the bot in. The status follows the move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextMessage, Ts3Client } from '../../daemon/ts3';
import { receipts } from '../../shared/receipts';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';
import { makeClient, nextEvent } from '../ts3/helpers';

const NICKNAME = 'Roaming Bot';
/** Every client of the test server is in this server group. */
const GUEST_GROUP = 8;
let app: VoiceApp;
const people = new Map<string, Ts3Client>();

/** What the bot answers privately when `nickname` writes `line` to it. */
async function ask(nickname: string, line: string): Promise<string> {
  const client = people.get(nickname)!;
  const bot = [...client.book.clients.values()].find((c) => c.nickname === NICKNAME);
  if (!bot) throw new Error(`${nickname} does not see the bot`);
  const reply = nextEvent<TextMessage>(client, 'textMessage', (m) => m.invokerName === NICKNAME, 10_000);
  await client.sendPrivateText(bot.id, line);
  return (await reply).message;
}

/** The channel the test server has the bot in. */
const serverChannelOfBot = () => {
  const client = app.server.clientByName(NICKNAME);
  return client && app.server.channels.get(client.channelId);
};
const statusChannel = async () =>
  (await app.admin.api.GET('/api/bot/{id}', { params: { path: { id: app.botId } } })).data?.channel;
const adminGroups = async (groups: number[]) => {
  const set = await app.admin.api.POST('/api/bot/settings', { body: { adminGroups: groups } });
  expect(set.response.status).toBe(200);
};

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Roaming', nickname: NICKNAME });
  const started = await app.admin.api.POST('/api/bot/{id}/start', { params: { path: { id: app.botId } } });
  expect(started.response.status).toBe(200);
  for (const [nickname, defaultChannel, channelPassword] of [
    ['Ann', 'Music/Quiet', undefined],
    ['Ben', 'Music', 'letmein'],
  ] as const) {
    const client = makeClient(app.server.port, app.server.rootPublicKey, {
      nickname,
      defaultChannel,
      ...(channelPassword ? { channelPassword } : {}),
    });
    await client.connect();
    people.set(nickname, client);
  }
}, 60_000);

afterAll(async () => {
  for (const client of people.values()) await client.disconnect().catch(() => undefined);
  await app?.close();
});

describe('!where and !come', () => {
  it('!where names the channel the bot is in', async () => {
    expect(serverChannelOfBot()?.name).toBe('Lobby');
    expect(await ask('Ann', '!where')).toBe(receipts.chatWhere('Lobby'));
    expect(await ask('Ann', '!where')).toBe('I am in Lobby.');
  });

  it('refuses !come to a sender outside adminGroups, and the bot stays', async () => {
    await adminGroups([6]);
    expect(await ask('Ann', '!come')).toBe(receipts.chatAdminOnly());
    expect(serverChannelOfBot()?.name).toBe('Lobby');
  });

  it('moves the bot into the sender’s channel for an adminGroups member; the status follows', async () => {
    await adminGroups([GUEST_GROUP]);
    expect(await ask('Ann', '!come')).toBe(receipts.chatCame('Quiet'));
    expect(serverChannelOfBot()?.name).toBe('Quiet');
    await expect.poll(statusChannel, { timeout: 10_000 }).toMatchObject({ name: 'Quiet' });
    expect(await ask('Ann', '!where')).toBe(receipts.chatWhere('Quiet'));
    expect(await ask('Ann', '!come')).toBe(receipts.chatAlreadyThere('Quiet'));
  });

  it('says so when the server does not let the bot into the sender’s channel', async () => {
    const reply = await ask('Ben', '!come');
    expect(reply).toMatch(/^I could not move to Music: .*invalid channel password/);
    expect(serverChannelOfBot()?.name).toBe('Quiet');
  });

  it('lists both in !help', async () => {
    const help = await ask('Ann', '!help');
    expect(help).toContain('!come');
    expect(help).toContain('!where');
  });
});
