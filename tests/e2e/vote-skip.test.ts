/**
 * Vote to skip (issue 24 item 3) on real parts: several voice clients in the bot's channel on the TS3
 * test server type `!skip`, a signed-in user votes from the web, and the song changes once the votes
 * reach `voteSkipRatio` of the people there. One vote per identity per song; a voter leaving resets the
 * count; the tally is in the bot status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextMessage, Ts3Client } from '../../daemon/ts3';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import type { Session } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';
import { makeClient, nextEvent } from '../ts3/helpers';

let app: VoiceApp;
let admin: Session;
let botId: string;
const songs: Song[] = [];
const people = new Map<string, Ts3Client>();
const bot = () => ({ params: { path: { botId } } });
const status = async () => (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data;
const currentSongId = async () => (await status())?.currentSong?.id;

/** What the bot answers in the channel when `nickname` types `line` there. */
async function say(nickname: string, line: string): Promise<string> {
  const client = people.get(nickname)!;
  const reply = nextEvent<TextMessage>(client, 'textMessage', (m) => m.invokerName === 'DJ Bot', 10_000);
  await client.sendChannelText(line);
  return (await reply).message;
}

beforeAll(async () => {
  app = await startVoiceApp({ name: 'DJ', nickname: 'DJ Bot' });
  ({ admin, botId } = app);
  for (const [name, frequencyHz] of [
    ['Alpha', 440],
    ['Beta', 660],
    ['Gamma', 880],
    ['Delta', 990],
  ] as const) {
    songs.push(await addToneUpload(app.t.db, app.t.dataDir, `${name} Tone`, [{ frequencyHz, seconds: 30 }]));
  }
  await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
  await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song: songs[0]! } });
  for (const song of songs.slice(1))
    await admin.api.POST('/api/player/{botId}/add-song', { ...bot(), body: { song } });
  for (const nickname of ['Ann', 'Ben', 'Cat']) {
    const client = makeClient(app.server.port, app.server.rootPublicKey, { nickname });
    await client.connect();
    people.set(nickname, client);
  }
}, 60_000);

afterAll(async () => {
  for (const client of people.values()) await client.disconnect().catch(() => undefined);
  await app?.close();
});

describe('vote to skip', () => {
  it('counts one vote per person and shows the tally; 3 in the channel need 2 votes', async () => {
    await expect
      .poll(async () => (await status())?.skipVotes, { timeout: 10_000 })
      .toEqual({ votes: 0, needed: 2 });
    expect(await say('Ann', '!skip')).toBe(receipts.skipVotes(1, 2));
    expect(await say('Ann', '!skip')).toBe(receipts.skipVoteRepeated(1, 2));
    expect((await status())?.skipVotes).toEqual({ votes: 1, needed: 2 });
    expect(await currentSongId()).toBe(songs[0]!.id);
  });

  it('counts a web vote with the channel votes and skips when they are enough', async () => {
    const vote = await admin.api.POST('/api/player/{botId}/vote-skip', bot());
    // The web voter is one more person: 4 people, 2 votes needed, 2 cast.
    expect(vote.data).toMatchObject({
      message: `${receipts.skipVotes(2, 2)}. ${receipts.skipped(songs[1]!)}`,
      votes: 2,
      needed: 2,
      skipped: true,
    });
    expect(await currentSongId()).toBe(songs[1]!.id);
    expect((await status())?.skipVotes).toEqual({ votes: 0, needed: 2 });
  });

  it('starts over when a voter leaves the channel', async () => {
    expect(await say('Ben', '!skip')).toBe(receipts.skipVotes(1, 2));
    await people.get('Ben')!.disconnect();
    people.delete('Ben');
    // Two people remain: one vote would skip, but Ben's vote left with him.
    await expect
      .poll(async () => (await status())?.skipVotes, { timeout: 10_000 })
      .toEqual({ votes: 0, needed: 1 });
    expect(await currentSongId()).toBe(songs[1]!.id);
    expect(await say('Cat', '!skip')).toBe(`${receipts.skipVotes(1, 1)}. ${receipts.skipped(songs[2]!)}`);
    expect(await currentSongId()).toBe(songs[2]!.id);
  });

  it('with voteSkipRatio 0, !skip skips at once', async () => {
    await admin.api.POST('/api/bot/settings', { body: { voteSkipRatio: 0 } });
    await expect.poll(async () => (await status())?.skipVotes.needed, { timeout: 10_000 }).toBe(1);
    expect(await say('Ann', '!skip')).toBe(`${receipts.skipVotes(1, 1)}. ${receipts.skipped(songs[3]!)}`);
    expect(await currentSongId()).toBe(songs[3]!.id);
  });

  it('refuses a vote with nothing playing (409) and counts nothing', async () => {
    await admin.api.POST('/api/player/{botId}/stop', bot());
    const vote = await admin.api.POST('/api/player/{botId}/vote-skip', bot());
    expect(vote.response.status).toBe(409);
    expect(vote.error?.error).toBe(receipts.nothingPlaying());
    expect(await say('Ann', '!skip')).toBe(receipts.nothingPlaying());
    expect((await status())?.skipVotes).toEqual({ votes: 0, needed: 0 });
  });
});
