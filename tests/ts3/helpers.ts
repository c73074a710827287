/** Shared set-up for the loopback tests: a test server, clients wired to its root, and event waits. */
import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { OpusEncoder } from '../../daemon/audio/encode/encoder';
import { parseLicenseRoot, Ts3Client, type Ts3ClientOptions } from '../../daemon/ts3';
import { sineFrames } from '../../testkit/audio-signals';

/** What TS3AudioBot sends ("Opus Music" at 32 768 bit/s), rather than the daemon's 96 kbps. */
const TS3AUDIOBOT_BITRATE_BPS = 32_768;

export function makeClient(
  port: number,
  rootPublicKey: string,
  options: Partial<Ts3ClientOptions> = {},
): Ts3Client {
  const root = parseLicenseRoot(rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  return new Ts3Client({
    address: '127.0.0.1',
    port,
    nickname: 'TestBot',
    licenseRoot: root.value,
    connectTimeoutMs: 10_000,
    ...options,
  });
}

/** Resolves with the first event `name` whose payload passes `match`, or rejects after `timeoutMs`. */
export function nextEvent<T>(
  emitter: EventEmitter,
  name: string,
  match: (payload: T) => boolean = () => true,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(name, listener);
      reject(new Error(`no ${name} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      emitter.off(name, listener);
      resolve(payload);
    };
    emitter.on(name, listener);
  });
}

/**
 * Sends one packet every 20 ms against an absolute clock, so timer lateness does not add up (the
 * @discordjs/voice scheduler's rule). After a stall of more than half a frame the clock is moved on
 * instead of sending the missed frames in a burst, as a real-time sender would.
 */
export async function sendPaced(send: (i: number) => void, count: number, frameMs = 20): Promise<void> {
  let start = performance.now();
  for (let i = 0; i < count; i++) {
    send(i);
    let wait = start + (i + 1) * frameMs - performance.now();
    if (wait < -frameMs / 2) {
      start -= wait;
      wait = 0;
    }
    await sleep(Math.max(1, wait));
  }
}

/** `seconds` of a sine as the Opus packets a bot sends, one per 20 ms. */
export function opusSine(frequencyHz: number, seconds: number): Uint8Array[] {
  const encoder = new OpusEncoder({ bitrateBps: TS3AUDIOBOT_BITRATE_BPS });
  try {
    return sineFrames(frequencyHz, seconds).map((frame) => encoder.encode(frame));
  } finally {
    encoder.destroy();
  }
}
