/**
 * The five Init1 payloads of the low-level handshake (paper §2), both directions. All travel as packet
 * type Init1 with MAC `TS3INIT1`, packet id 101 and client id 0.
 */
import { err, ok, type Result } from '../../shared/result';
import { PUZZLE_NUMBER_BYTES } from './rsa-puzzle';

export const INIT1_PACKET_ID = 101;
/**
 * The version field: TS3AudioBot and honeybbq send this constant (since the 3.10 server), tsclientlib
 * sends now − 2013-01-01; all connect.
 */
export const INIT1_VERSION = 1566914096;
/** A step-3 packet with this step byte asks the client to start again at step 0. */
export const INIT1_RESTART = 127;

const STEP3_BYTES = 1 + 2 * PUZZLE_NUMBER_BYTES + 4 + 100;
/** x | n | level | server bytes: echoed by the client in step 4. */
const STEP3_ECHO_BYTES = STEP3_BYTES - 1;
/** Where the clientinitiv text starts in a step-4 payload. */
export const STEP4_COMMAND_OFFSET = 4 + 1 + STEP3_ECHO_BYTES + PUZZLE_NUMBER_BYTES;

export function clientStep0(random0: Uint8Array, unixSeconds: number): Buffer {
  const b = Buffer.alloc(21);
  b.writeUInt32BE(INIT1_VERSION, 0);
  b[4] = 0;
  b.writeUInt32BE(unixSeconds >>> 0, 5);
  b.set(random0.subarray(0, 4), 9);
  return b;
}

/** Step 1 carries 16 server bytes and the client's random0 reversed (not checked: some networks alter it). */
export function serverStep1(serverBytes: Uint8Array, random0: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from([1]),
    serverBytes.subarray(0, 16),
    Buffer.from(random0.subarray(0, 4)).reverse(),
  ]);
}

export function clientStep2(step1: Buffer): Buffer {
  const b = Buffer.alloc(25);
  b.writeUInt32BE(INIT1_VERSION, 0);
  b[4] = 2;
  step1.copy(b, 5, 1, 21);
  return b;
}

export interface Puzzle {
  x: Buffer;
  n: Buffer;
  level: number;
  serverBytes: Buffer;
}

export function serverStep3(p: Puzzle): Buffer {
  const b = Buffer.alloc(STEP3_BYTES);
  b[0] = 3;
  p.x.copy(b, 1);
  p.n.copy(b, 1 + PUZZLE_NUMBER_BYTES);
  b.writeUInt32BE(p.level, 1 + 2 * PUZZLE_NUMBER_BYTES);
  p.serverBytes.copy(b, 5 + 2 * PUZZLE_NUMBER_BYTES);
  return b;
}

export function clientStep4(step3: Buffer, y: Buffer, clientinitiv: string): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(INIT1_VERSION, 0);
  head[4] = 4;
  return Buffer.concat([head, step3.subarray(1, STEP3_BYTES), y, Buffer.from(clientinitiv, 'utf8')]);
}

export type ServerInit1 =
  | { step: 1; payload: Buffer }
  | { step: 3; payload: Buffer; puzzle: Puzzle }
  | { step: typeof INIT1_RESTART };

/** What a client receives. A 5-byte step 1 is the server's error code. */
export function parseServerInit1(payload: Buffer): Result<ServerInit1> {
  const step = payload[0];
  if (step === 1) {
    if (payload.length === 5)
      return err(`server refused the connection in Init1 (code ${payload.readUInt32BE(1)})`);
    if (payload.length !== 21) return err('Init1 step 1 has the wrong length');
    return ok({ step, payload });
  }
  if (step === 3) {
    if (payload.length !== STEP3_BYTES) return err('Init1 step 3 has the wrong length');
    const p = 1 + 2 * PUZZLE_NUMBER_BYTES;
    return ok({
      step,
      payload,
      puzzle: {
        x: payload.subarray(1, 1 + PUZZLE_NUMBER_BYTES),
        n: payload.subarray(1 + PUZZLE_NUMBER_BYTES, p),
        level: payload.readUInt32BE(p),
        serverBytes: payload.subarray(p + 4),
      },
    });
  }
  if (step === INIT1_RESTART) return ok({ step });
  return err(`unexpected Init1 step ${String(step)} from server`);
}

export type ClientInit1 =
  | { step: 0; random0: Buffer }
  | { step: 2; echoed: Buffer }
  | { step: 4; echoed: Buffer; y: Buffer; command: string };

/** What a server receives. */
export function parseClientInit1(payload: Buffer): Result<ClientInit1> {
  if (payload.length < 5) return err('Init1 packet too short');
  const step = payload[4];
  if (step === 0 && payload.length === 21) return ok({ step, random0: payload.subarray(9, 13) });
  if (step === 2 && payload.length === 25) return ok({ step, echoed: payload.subarray(5, 25) });
  if (step === 4 && payload.length > STEP4_COMMAND_OFFSET) {
    return ok({
      step,
      echoed: payload.subarray(5, 5 + STEP3_ECHO_BYTES),
      y: payload.subarray(5 + STEP3_ECHO_BYTES, STEP4_COMMAND_OFFSET),
      command: payload.toString('utf8', STEP4_COMMAND_OFFSET),
    });
  }
  return err(`malformed Init1 step ${String(step)}`);
}
