/**
 * The server's side of the handshake (paper §2–3; TS3AudioBot TsCrypt.ProcessInit1 shows the server path):
 * Init1 answers with a small real puzzle, `initivexpand2` with a license chain under the test root, and the
 * session keys once `clientek` arrives.
 */
import { randomBytes, sign, verify } from 'node:crypto';
import { buildCommand, type ParsedCommand, parseCommand } from '../../daemon/ts3/command';
import { deriveSharedIv, SessionKeys } from '../../daemon/ts3/crypt';
import { decodePoint, scalarToLe, sharedPoint } from '../../daemon/ts3/ed25519';
import { type Identity, parseOmega } from '../../daemon/ts3/identity';
import { parseClientInit1, serverStep1, serverStep3 } from '../../daemon/ts3/init1';
import type { PacketHandler } from '../../daemon/ts3/packet-handler';
import { PUZZLE_NUMBER_BYTES, solvePuzzle } from '../../daemon/ts3/rsa-puzzle';
import { err, ok, type Result } from '../../shared/result';
import type { ServerLicense } from './license-signer';

export interface ClientHello {
  alpha: Buffer;
  omega: string;
}

export class ServerHandshake {
  private readonly serverBytes = randomBytes(16);
  private readonly puzzleServerBytes = randomBytes(100);
  private readonly beta = randomBytes(54);
  private puzzle: { x: Buffer; n: Buffer; y: Buffer } | undefined;
  hello: ClientHello | undefined;

  constructor(
    private readonly handler: PacketHandler,
    private readonly license: ServerLicense,
    private readonly identity: Identity,
    private readonly puzzleLevel: number,
  ) {}

  onInit1(payload: Buffer): Result<void> {
    const parsed = parseClientInit1(payload);
    if (!parsed.ok) return parsed;
    const step = parsed.value;
    if (step.step === 0) {
      this.handler.sendInit1(serverStep1(this.serverBytes, step.random0));
    } else if (step.step === 2) {
      if (!step.echoed.subarray(0, 16).equals(this.serverBytes)) return err('step 2 does not echo our bytes');
      this.handler.sendInit1(
        serverStep3({ ...this.newPuzzle(), level: this.puzzleLevel, serverBytes: this.puzzleServerBytes }),
      );
    } else if (!this.hello) {
      return this.onStep4(step.y, step.command);
    }
    return ok(undefined);
  }

  private newPuzzle(): { x: Buffer; n: Buffer } {
    if (!this.puzzle) {
      const n = randomBytes(PUZZLE_NUMBER_BYTES);
      n[0]! |= 0x80;
      n[PUZZLE_NUMBER_BYTES - 1]! |= 1;
      const x = randomBytes(PUZZLE_NUMBER_BYTES);
      x[0]! &= 0x7f;
      this.puzzle = { x, n, y: solvePuzzle(x, n, this.puzzleLevel) };
    }
    return this.puzzle;
  }

  private onStep4(y: Buffer, text: string): Result<void> {
    if (!this.puzzle || !y.equals(this.puzzle.y)) return err('wrong puzzle solution');
    const parsed = parseCommand(text);
    if (!parsed.ok || parsed.value.name !== 'clientinitiv') return err('step 4 carries no clientinitiv');
    const f = parsed.value.items[0] ?? {};
    const alpha = Buffer.from(f.alpha ?? '', 'base64');
    if (alpha.length !== 10 || !f.omega || !parseOmega(f.omega).ok) return err('bad clientinitiv');
    this.hello = { alpha, omega: f.omega };
    const license = this.license.license;
    this.handler.sendCommand(
      buildCommand('initivexpand2', {
        l: license.toString('base64'),
        beta: this.beta.toString('base64'),
        omega: this.identity.omega,
        ot: 1,
        proof: sign('sha256', license, this.identity.privateKey).toString('base64'),
        tvd: '',
        time: Math.floor(Date.now() / 1000),
      }),
    );
    return ok(undefined);
  }

  /** Checks the clientek proof and installs the session keys (the ack already went out under the fake key). */
  onClientek(command: ParsedCommand): Result<void> {
    if (!this.hello) return err('clientek before clientinitiv');
    if (this.handler.hasSession) return ok(undefined);
    const f = command.items[0] ?? {};
    const ek = Buffer.from(f.ek ?? '', 'base64');
    const proof = Buffer.from(f.proof ?? '', 'base64');
    const clientKey = parseOmega(this.hello.omega);
    const ekPoint = decodePoint(ek);
    if (!clientKey.ok || !ekPoint.ok) return err('bad clientek key');
    let valid = false;
    try {
      valid = verify('sha256', Buffer.concat([ek, this.beta]), clientKey.value, proof);
    } catch {
      valid = false;
    }
    if (!valid) return err('clientek proof does not verify');
    const shared = sharedPoint(ekPoint.value, scalarToLe(this.license.privateScalar));
    this.handler.setSession(new SessionKeys(deriveSharedIv(shared, this.hello.alpha, this.beta)));
    return ok(undefined);
  }
}
