/**
 * A voice server that refuses a bot's connection: the start answers with the refusal's own phrase (a
 * wrong server password, a ban, a full server, too weak an identity), which every locale words, not
 * with the server's English message. Each refusal comes from the TS3 test server checking what a real
 * server checks at clientinit, answered with the error id a real server sends.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_VERSIONS } from '../../shared/domain/client-versions';
import { type PhraseCode, renderPhrase } from '../../shared/i18n/phrases';
import { type TestServerOptions, Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { type BotSpec, DaemonHarness } from './harness';

/** One license root for every server, so the one daemon trusts them all. */
const rootSecret = randomBytes(32);
const servers: Ts3TestServer[] = [];
let h: DaemonHarness;

async function serverWith(options: TestServerOptions): Promise<Ts3TestServer> {
  const server = await Ts3TestServer.start({ rootSecret, ...options });
  servers.push(server);
  return server;
}

/** Starts a bot on `server` and expects the start refused with `code`, worded in English and Chinese. */
async function expectRefused(server: Ts3TestServer, spec: BotSpec, code: PhraseCode, english: string) {
  const bot = await h.addBot(server.port, spec);
  const reply = await h.command(bot, 'start');
  expect(reply).toMatchObject({ ok: false, status: 500, message: english, phrases: [{ code, params: {} }] });
  const chinese = renderPhrase({ code }, 'zh');
  expect(chinese).toMatch(/^无法连接：/);
  expect(chinese).not.toMatch(/[A-Za-z]/);
  expect(await h.status(bot)).toMatchObject({ connected: false });
  expect(server.clients.map((c) => c.nickname)).not.toContain(spec.name);
}

beforeAll(async () => {
  h = await DaemonHarness.create(await serverWith({}));
  await h.startDaemon();
});

afterAll(async () => {
  await h?.close();
  for (const server of servers) await server.close();
});

describe('a voice server refusing a bot', () => {
  it('says the server password is wrong, and connects with the right one', async () => {
    const server = await serverWith({ serverPassword: 'open sesame' });
    await expectRefused(
      server,
      { name: 'Guessing', serverPassword: 'wrong' },
      'startWrongServerPassword',
      "Could not connect: the voice server's password is wrong; enter it in the bot's connection settings.",
    );
    const bot = await h.addBot(server.port, { name: 'Knowing', serverPassword: 'open sesame' });
    expect(await h.command(bot, 'start')).toMatchObject({ ok: true, phrases: [{ code: 'started' }] });
  }, 30_000);

  it.each([
    {
      why: 'the bot is banned',
      options: { bannedNicknames: ['Outlaw'] },
      name: 'Outlaw',
      code: 'startBanned',
      english: 'Could not connect: the voice server has banned this bot.',
    },
    {
      why: 'the identity is below the security level the server asks for',
      options: { neededSecurityLevel: 40 },
      name: 'Weak',
      code: 'startSecurityLevel',
      english:
        "Could not connect: the voice server asks for a higher identity security level than this bot's.",
    },
  ] as const)(
    'says $why',
    async ({ options, name, code, english }) => {
      await expectRefused(await serverWith(options), { name }, code, english);
    },
    30_000,
  );

  it('says the server is full once its last slot is taken', async () => {
    const server = await serverWith({ maxClients: 1 });
    const first = await h.addBot(server.port, { name: 'Early' });
    expect((await h.command(first, 'start')).ok).toBe(true);
    await expectRefused(
      server,
      { name: 'Late' },
      'startServerFull',
      'Could not connect: the voice server is full.',
    );
  }, 30_000);
});

describe('a TeamSpeak 6 server (its license chain; it drops a clientinit naming a 3.x client)', () => {
  it('gets the TS6 version from a bot left automatic, and the version a bot is set to', async () => {
    const server = await serverWith({ license: 'ts6' });
    const automatic = await h.addBot(server.port, { name: 'Automatic' });
    const fixed = await h.addBot(server.port, { name: 'Fixed', clientVersion: '5.0.0-beta77-windows' });
    for (const bot of [automatic, fixed])
      expect(await h.command(bot, 'start')).toMatchObject({ ok: true, phrases: [{ code: 'started' }] });
    const seen = Object.fromEntries(server.clients.map((c) => [c.nickname, c.clientVersion]));
    expect(seen).toEqual({
      Automatic: CLIENT_VERSIONS['6.0.0-beta2-windows'].version,
      Fixed: CLIENT_VERSIONS['5.0.0-beta77-windows'].version,
    });
  }, 30_000);
});
