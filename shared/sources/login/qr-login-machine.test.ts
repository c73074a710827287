import { describe, expect, it } from 'vitest';
import { err, ok } from '../../result';
import { type QrFlow, QrLoginMachine } from './qr-login-machine';

interface Answer {
  code: number;
  cookie?: string;
}

/** A platform that answers the codes it is given, one per poll, and keeps what it was asked. */
function platform(codes: number[]) {
  const asked: Record<string, string>[] = [];
  const flow: QrFlow<Answer> = {
    start: async () => ok({ qrUrl: 'https://login.example/qr?k=key1', state: { key: 'key1' } }),
    needs: ['key'],
    incomplete: 'the attempt has no key',
    async ask(state) {
      asked.push(state);
      const code = codes.shift();
      return code === undefined ? err('the platform cannot be reached') : ok({ code, cookie: 'SESSION=s1' });
    },
    codeOf: (answer) => answer.code,
    pending: { 1: 'waiting', 2: 'scanned', 3: 'expired' },
    confirmed: 9,
    refused: ({ code }) => `the platform refused the login (code ${code})`,
    confirm: async ({ cookie }, state) =>
      ok({ credential: `${cookie}; key=${state.key}`, profile: { nickname: 'Ann' } }),
  };
  return { machine: new QrLoginMachine(flow), asked };
}

describe('the shared QR-login machine', () => {
  it('starts with what the platform hands out', async () => {
    expect(await platform([]).machine.start()).toEqual(
      ok({ qrUrl: 'https://login.example/qr?k=key1', state: { key: 'key1' } }),
    );
  });

  it("maps the platform's codes to waiting, scanned, expired and a confirmed credential", async () => {
    const { machine, asked } = platform([1, 2, 9, 3]);
    const state = { key: 'key1' };
    expect(await machine.poll(state)).toEqual(ok({ status: 'waiting' }));
    expect(await machine.poll(state)).toEqual(ok({ status: 'scanned' }));
    expect(await machine.poll(state)).toEqual(
      ok({ status: 'confirmed', credential: 'SESSION=s1; key=key1', profile: { nickname: 'Ann' } }),
    );
    expect(await machine.poll(state)).toEqual(ok({ status: 'expired' }));
    expect(asked).toEqual([state, state, state, state]);
  });

  it("answers any other code with the platform's refusal", async () => {
    expect(await platform([42]).machine.poll({ key: 'key1' })).toEqual(
      err('the platform refused the login (code 42)'),
    );
  });

  it('asks nothing for a state that lacks what the poll needs', async () => {
    const { machine, asked } = platform([1]);
    expect(await machine.poll({})).toEqual(err('the attempt has no key'));
    expect(asked).toEqual([]);
  });

  it('passes on a platform that cannot be reached, and a confirmation that fails', async () => {
    expect(await platform([]).machine.poll({ key: 'key1' })).toEqual(err('the platform cannot be reached'));
    const failing = new QrLoginMachine<Answer>({
      start: async () => err('no code'),
      needs: [],
      incomplete: '',
      ask: async () => ok({ code: 9 }),
      codeOf: (answer) => answer.code,
      pending: {},
      confirmed: 9,
      refused: () => 'refused',
      confirm: async () => err('the platform does not accept this login'),
    });
    expect(await failing.poll({})).toEqual(err('the platform does not accept this login'));
  });
});
