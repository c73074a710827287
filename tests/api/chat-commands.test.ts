/**
 * Chat commands run through the REST API as the chat service: same validation and texts as REST,
 * admin-type commands limited to `adminGroups`, and the service token is the only way in.
 */
import { randomUUID } from 'node:crypto';
import { HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_COMMANDS } from '../../daemon/chat/chat-commands';
import { uploads } from '../../shared/db/schema';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { chatFor } from '../helpers/chat';
import { useNeteaseApi } from '../helpers/netease-api';

const netease = useNeteaseApi();
let t: TestApp;
let admin: Session;
let botId: string;
const user = { nickname: 'Listener', uid: 'listener-uid', serverGroups: [8] };
beforeAll(async () => {
  t = await startTestApp();
  admin = await setupAdmin(t);
  botId = await insertBot(t);
});
afterAll(() => t.close());

describe('chat commands', () => {
  it('ignores plain chat and answers unknown commands with a hint', async () => {
    const chat = chatFor(t, botId);
    expect(await chat.handle('hello everyone', user)).toBeUndefined();
    expect(await chat.handle('!dance', user)).toBe('Unknown command !dance. Try !help.');
  });

  it('lists every command of the table in help', async () => {
    const help = (await chatFor(t, botId).handle('!help', user))!;
    for (const name of Object.keys(CHAT_COMMANDS)) expect(help).toContain(`!${name}`);
  });

  it('has every command DECISIONS.md names', () => {
    expect(Object.keys(CHAT_COMMANDS)).toEqual(
      expect.arrayContaining([
        'play',
        'add',
        'playnext',
        'search',
        'next',
        'skip',
        'prev',
        'pause',
        'resume',
        'stop',
        'clear',
        'remove',
        'vol',
        'mode',
        'queue',
        'now',
        'lyrics',
        'playlist',
        'album',
        'fm',
        'save',
        'load',
        'queues',
        'move',
        'help',
      ]),
    );
  });

  it('replies with the same text as the REST call', async () => {
    const chat = chatFor(t, botId);
    const rest = await admin.api.POST('/api/player/{botId}/volume', {
      params: { path: { botId } },
      body: { volume: 150 },
    });
    expect(await chat.handle('!vol 150', user)).toBe(rest.error?.error);
    const restNorm = await admin.api.POST('/api/player/{botId}/loudness', {
      params: { path: { botId } },
      body: { targetLufs: 5 },
    });
    expect(await chat.handle('!norm 5', user)).toBe(restNorm.error?.error);
    expect(await chat.handle('!norm loud', user)).toBe('Usage: !norm [on|off|-23…-10]');
    expect(await chat.handle('!autoplay maybe', user)).toBe('Usage: !autoplay [on|off]');
    for (const seconds of [13, 1.5]) {
      const restFade = await admin.api.POST('/api/player/{botId}/crossfade', {
        params: { path: { botId } },
        body: { seconds },
      });
      expect(await chat.handle(`!crossfade ${seconds}`, user)).toBe(restFade.error?.error);
    }
    expect(await chat.handle('!crossfade long', user)).toBe('Usage: !crossfade [0-12]');
    const restPlay = await admin.api.POST('/api/player/{botId}/play', {
      params: { path: { botId } },
      body: { query: 'x', platform: 'library_a' },
    });
    expect(await chat.handle('!play x -j', user)).toBe(restPlay.error?.error);
    expect(await chat.handle('!mode shuffle', user)).toBe('Usage: !mode [seq|loop|random|rloop]');
    expect(await chat.handle('!remove zero', user)).toBe('Usage: !remove <position>');
  });

  it('says and sets the crossfade through its REST call', async () => {
    const chat = chatFor(t, botId);
    expect(await chat.handle('!crossfade', user)).toBe(
      'Crossfade is off: each song follows the last without a gap.',
    );
    expect(await chat.handle('!crossfade 5', user)).toBe(
      'Crossfade is 5 s: the next song starts under the end of the one playing.',
    );
    const status = await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } });
    expect(status.data?.status.crossfadeSeconds).toBe(5);
    expect(await chat.handle('!crossfade', user)).toBe(
      'Crossfade is 5 s: the next song starts under the end of the one playing.',
    );
    expect(await chat.handle('!crossfade 0', user)).toBe(
      'Crossfade is off: each song follows the last without a gap.',
    );
  });

  it('searches a source and numbers the results', async () => {
    const now = new Date();
    for (const name of ['Morning Song.mp3', 'Evening Song.flac']) {
      await t.db.insert(uploads).values({
        id: randomUUID(),
        originalName: name,
        storedName: `${randomUUID()}.bin`,
        sizeBytes: 1,
        createdAt: now,
      });
    }
    // Uploaded files are the local source; make it the default so a flag-less search reaches it.
    await admin.api.POST('/api/bot/settings', { body: { defaultPlatform: 'local' } });
    const reply = (await chatFor(t, botId).handle('!search song', user))!;
    expect(
      reply
        .split('\n')
        .map((line) => line.replace(/^\d\. /, ''))
        .sort(),
    ).toEqual(['Evening Song', 'Morning Song']);
    expect(reply).toMatch(/^1\. .*\n2\. /);
    expect(await chatFor(t, botId).handle('!search nothing-like-this', user)).toBe(
      'No results for "nothing-like-this".',
    );
  });

  it('says in plain words that a platform cannot be reached, without its internal name or the network error', async () => {
    netease.answer('/eapi/cloudsearch/pc', () => HttpResponse.error());
    // The bot here is not connected, so a search stands for every command that looks for songs.
    const rest = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'anything', platform: 'music_a' } },
    });
    // The REST answer keeps the detail for admins; the chat says what it means.
    expect(rest.error?.error).toMatch(/^music_a: NetEase Cloud Music could not be reached/);
    const reply = await chatFor(t, botId).handle('!search anything -n', user);
    expect(reply).toBe(receipts.chatPlatformUnreachable('music_a'));
    expect(reply).toBe('This server cannot reach NetEase Cloud Music right now; try again later.');
  });

  it('says there is nothing to undo when no command replaced the queue', async () => {
    expect(await chatFor(t, botId).handle('!undo', user)).toBe('There is nothing to undo.');
  });

  it('limits admin-type commands to adminGroups members when the list is set', async () => {
    const guarded = chatFor(t, botId, [6]);
    for (const line of [
      '!next',
      '!stop',
      '!clear',
      '!remove 1',
      '!move 1 2',
      '!vol 10',
      '!mode loop',
      '!norm off',
      '!autoplay on',
      '!crossfade 4',
    ]) {
      expect(await guarded.handle(line, user)).toBe('Only members of the admin groups may do that.');
    }
    expect(
      await guarded.handle('!vol 150', { nickname: 'Boss', uid: 'boss-uid', serverGroups: [6] }),
    ).toMatch(/^volume: /);
    expect(await guarded.handle('!queue', user)).not.toBe('Only members of the admin groups may do that.');
  });

  it('lets only the right service token act as the chat service, and never as an admin', async () => {
    const wrong = await t.fetch(
      new Request(`${TEST_ORIGIN}/api/bot`, {
        headers: { 'x-service-token': 'x'.repeat(64), 'x-act-for': 'Mallory' },
      }),
    );
    expect(wrong.status).toBe(401);
    const asService = (path: string) =>
      t.fetch(
        new Request(`${TEST_ORIGIN}${path}`, {
          headers: { 'x-service-token': t.config.serviceToken, 'x-act-for': 'Eve' },
        }),
      );
    expect((await asService('/api/bot')).status).toBe(200);
    expect((await asService('/api/users')).status).toBe(403);
    expect((await asService('/api/keys')).status).toBe(403);
    expect((await asService('/api/bot/settings')).status).toBe(200);
  });
});
