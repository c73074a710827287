import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, opusSine, sendPaced } from './helpers';

type Line = Record<string, unknown> & { event: string };

describe('ts3-test-server CLI', () => {
  let child: ChildProcess | undefined;

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('prints one JSON line per event', async () => {
    const secret = '50b8f7f2a03ddeaaf3759f1a443f97062a821fa6cb35501b57fceb8ebee2ca43';
    // node --import tsx rather than npx: npm's start-up would compete with the timing-sensitive suites.
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'testkit/ts3-server/cli.ts', '--port', '0', '--root-secret', secret],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines: Line[] = [];
    const waiters: { match: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      lines.push(line);
      for (const w of waiters.splice(0)) w.match(line) ? w.resolve(line) : waiters.push(w);
    });
    const next = (match: (l: Line) => boolean) =>
      new Promise<Line>((resolve) => {
        const seen = lines.find(match);
        if (seen) resolve(seen);
        else waiters.push({ match, resolve });
      });

    const listening = await next((l) => l.event === 'listening');
    // The root of the vector shared_secret/test_server_root_override.
    expect(listening.rootPublicKey).toBe('RWYt4sMFTMJwQnx8mHldPL9dDUxUu4XqKjbg7tOuIac=');
    const bot = makeClient(listening.port as number, listening.rootPublicKey as string, {
      nickname: 'CliBot',
    });
    await bot.connect();
    expect(await next((l) => l.event === 'clientConnected')).toMatchObject({ nickname: 'CliBot' });

    await bot.sendChannelText('hi from the bot');
    expect(await next((l) => l.event === 'textMessage')).toMatchObject({ message: 'hi from the bot' });
    await bot.setNickname('CliDJ');
    expect(await next((l) => l.event === 'clientUpdated')).toMatchObject({
      changes: { client_nickname: 'CliDJ' },
    });

    const packets = opusSine(440, 1.2);
    await sendPaced((i) => bot.sendVoice(packets[i]!), packets.length);
    bot.endVoice();
    const stats = await next((l) => l.event === 'voiceStats' && l.endPackets === 1);
    expect(stats.packets).toBe(packets.length);

    await bot.disconnect();
    expect(await next((l) => l.event === 'clientDisconnected')).toMatchObject({ clientId: bot.clientId });
  });
});
