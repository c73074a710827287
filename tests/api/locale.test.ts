/**
 * The API words its receipts and errors in the caller's language (Accept-Language: en, zh; else
 * LOCALE) and sends the phrase beside the text: `code` and `params`, the same whatever the language.
 */
import { describe, expect, it } from 'vitest';
import { insertBot, type Session, uniqueName, withAdminApp } from '../../testkit/accounts';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
let botId: string;
withAdminApp(async (app, session) => {
  t = app;
  admin = session;
  botId = await insertBot(app);
});

async function send(path: string, language: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('cookie', admin.jar.header()!);
  if (language) headers.set('accept-language', language);
  if (init.body) headers.set('content-type', 'application/json');
  const response = await t.fetch(new Request(`${TEST_ORIGIN}${path}`, { ...init, headers }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const post = (path: string, body: unknown, language?: string) =>
  send(path, language, { method: 'POST', body: JSON.stringify(body) });

describe('receipts in the caller language', () => {
  it('words a player receipt in Chinese, English, or LOCALE when no language is asked for', async () => {
    const zh = await post(`/api/player/${botId}/volume`, { volume: 54 }, 'zh-CN,zh;q=0.9,en;q=0.8');
    expect(zh).toEqual({
      status: 200,
      body: { message: '音量已设为 54%。', code: 'volume', params: { volume: 54 } },
    });
    const en = await post(`/api/player/${botId}/mode`, { mode: 'random' }, 'en-GB');
    expect(en.body).toEqual({ message: 'Play mode: Shuffle.', code: 'mode', params: { mode: 'random' } });
    const zhMode = await post(`/api/player/${botId}/mode`, { mode: 'random' }, 'zh');
    expect(zhMode.body).toMatchObject({ message: '播放模式：随机播放。', code: 'mode' });
    expect((await post(`/api/player/${botId}/clear`, {}, undefined)).body).toEqual({
      message: 'Queue cleared.',
      code: 'cleared',
      params: {},
    });
  });

  it('words a refusal of the bot in the caller language, its code beside it', async () => {
    const refused = await post(`/api/player/${botId}/next`, {}, 'zh');
    expect(refused).toEqual({
      status: 409,
      body: {
        error: '机器人未连接到语音服务器。',
        message: '机器人未连接到语音服务器。',
        ok: false,
        code: 'notConnected',
        params: {},
      },
    });
  });
});

describe('errors in the caller language', () => {
  it('says which field failed validation, with a code telling what kind of failure', async () => {
    const en = await post(`/api/player/${botId}/volume`, { volume: 101 });
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ code: 'fieldTooBig', params: { field: 'volume' } });
    expect(en.body.error).toMatch(/^volume: /);
    const zh = await post(`/api/player/${botId}/volume`, {}, 'zh');
    expect(zh).toMatchObject({
      status: 400,
      body: { error: '缺少 volume。', code: 'fieldMissing', params: { field: 'volume' } },
    });
    const unknown = await post(`/api/player/${botId}/volume`, { volume: 1, loud: true }, 'zh');
    expect(unknown.body).toMatchObject({ code: 'fieldsUnknown', params: { field: 'body', fields: 'loud' } });
  });

  it('words not found, forbidden and unauthenticated answers', async () => {
    expect(await send('/api/bot/no-such-bot', 'zh')).toEqual({
      status: 404,
      body: { error: '找不到这个机器人。', code: 'botNotFound', params: {} },
    });
    const crossSite = await send(`/api/player/${botId}/pause`, 'zh', {
      method: 'POST',
      headers: { origin: 'http://elsewhere.test' },
    });
    expect(crossSite).toEqual({
      status: 403,
      body: { error: '已拒绝跨站请求。', code: 'crossSite', params: {} },
    });
    const anonymous = await t.fetch(
      new Request(`${TEST_ORIGIN}/api/bot`, { headers: { 'accept-language': 'zh' } }),
    );
    expect(await anonymous.json()).toEqual({ error: '请先登录。', code: 'notSignedIn', params: {} });
    expect((await send('/api/nothing-here', 'zh')).body).toEqual({
      error: '没有 GET /api/nothing-here 这个接口。',
      code: 'noRoute',
      params: { method: 'GET', path: '/api/nothing-here' },
    });
  });

  it('gives a sentence thrown without its own code the generic code of its status', async () => {
    const again = { username: uniqueName('admin'), password: 'correct horse battery' };
    expect(await post('/api/session/setup', again, 'en')).toEqual({
      status: 409,
      body: { error: 'setup is already done', code: 'conflict', params: { detail: 'setup is already done' } },
    });
    expect((await post('/api/session/setup', again, 'zh')).body).toMatchObject({
      error: '与现有内容冲突。',
      code: 'conflict',
    });
  });

  it('says a user name that is taken in both languages, naming the field', async () => {
    const user = { username: uniqueName('member'), password: 'correct horse battery' };
    expect((await post('/api/users', user)).status).toBe(201);
    expect(await post('/api/users', user, 'en')).toEqual({
      status: 409,
      body: {
        error: 'This user name is taken; choose another.',
        code: 'usernameTaken',
        params: { field: 'username' },
      },
    });
    expect((await post('/api/users', user, 'zh')).body).toMatchObject({
      error: '这个用户名已被占用，请换一个。',
      code: 'usernameTaken',
    });
  });
});
