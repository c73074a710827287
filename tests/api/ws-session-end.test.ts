/**
 * An open /ws does not outlive its session: nothing announces a session's idle end, so the gateway
 * sweeps its sockets and closes (4401) one whose session ended, while a session renewed by a request
 * in the meantime keeps its socket, and an API key's socket is never swept away. Real app, real
 * libSQL file, real `ws` clients; the sweep is shortened, and the passing of days is the gateway's
 * clock moved on together with the stored ends.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_LIFETIME_MS } from '../../api/access/sessions';
import { sessions } from '../../shared/db/schema/accounts';
import { WS_CLOSE_SIGNED_OUT } from '../../shared/ws-messages';
import { createKey, createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { connect, type Socket } from '../helpers/ws-client';

const SWEEP_MS = 100;

/** The gateway's clock: real time plus what a test let pass. */
let skippedMs = 0;
const passTime = (ms: number) => {
  skippedMs += ms;
};
/** Long enough for several sweeps and a reload each. */
const WITHIN_MS = 2000;

/** Moves the end of every session of `userId` to `at` (epoch ms), as time passing would. */
async function endSessionsAt(t: TestApp, userId: string, at: number): Promise<void> {
  await t.db
    .update(sessions)
    .set({ expiresAt: Math.floor(at / 1000) })
    .where(eq(sessions.userId, userId));
}

const stillOpenAfter = (socket: Socket, ms: number) =>
  Promise.race([socket.closed.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), ms))]);

describe('a socket ends with its session', () => {
  let t: TestApp;
  let wsUrl: string;
  let admin: Session;

  beforeAll(async () => {
    t = await startTestApp({
      withDaemon: false,
      wsGateway: { sessionSweepMs: SWEEP_MS, now: () => Date.now() + skippedMs },
    });
    wsUrl = `${(await t.listen()).replace('http', 'ws')}/ws`;
    admin = await setupAdmin(t);
  });
  afterAll(() => t.close());

  async function opened(headers: Record<string, string>): Promise<Socket> {
    const socket = await connect(wsUrl, headers);
    await socket.next((m) => m.type === 'hello');
    return socket;
  }

  it('closes a session socket once its session has ended', async () => {
    const member = await createMember(t, admin);
    const socket = await opened({ cookie: member.jar.header()! });
    // Swept while its session is valid: it stays open.
    expect(await stillOpenAfter(socket, SWEEP_MS * 3)).toBe(true);
    passTime(SESSION_LIFETIME_MS.member);
    await endSessionsAt(t, member.id, Date.now() - 1000);
    const code = await Promise.race([
      socket.closed,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('socket still open')), WITHIN_MS)),
    ]);
    expect(code).toBe(WS_CLOSE_SIGNED_OUT);
  });

  it('keeps a socket whose session was renewed before its end came', async () => {
    const member = await createMember(t, admin);
    const socket = await opened({ cookie: member.jar.header()! });
    await new Promise((r) => setTimeout(r, SWEEP_MS * 3));
    // Its first end passes, but a request renewed the session meanwhile.
    passTime(SESSION_LIFETIME_MS.member);
    await endSessionsAt(t, member.id, Date.now() + SESSION_LIFETIME_MS.member);
    expect(await stillOpenAfter(socket, WITHIN_MS)).toBe(true);
    socket.ws.close();
  });

  it('never sweeps away an API key socket', async () => {
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const socket = await opened({ authorization: `Bearer ${key}` });
    await endSessionsAt(t, member.id, Date.now() - 1000);
    expect(await stillOpenAfter(socket, SWEEP_MS * 10)).toBe(true);
    socket.ws.close();
  });
});
