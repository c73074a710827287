/**
 * The client's side of the handshake (paper §2–3): Init1 steps 0–4 with the RSA puzzle, then
 * `initivexpand2` (license chain, proof), `clientek` and the session keys, then `clientinit`. It ends when
 * `clientinit` is queued; `initserver` is the client's business.
 */
import { type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { err, ok, type Result } from '../../shared/result';
import { buildCommand, type ParsedCommand } from './command';
import { deriveSharedIv, SessionKeys } from './crypt';
import { generateEphemeralKey, sharedPoint } from './ed25519';
import type { Identity } from './identity';
import { parseOmega } from './identity';
import { clientStep0, clientStep2, clientStep4, INIT1_RESTART, parseServerInit1 } from './init1';
import { parseLicense, serverKeyOf } from './license';
import type { PacketHandler } from './packet-handler';
import { MAX_PUZZLE_LEVEL, solvePuzzle } from './rsa-puzzle';

const ALPHA_BYTES = 10;
const BETA_BYTES = 54;

export interface HandshakeOptions {
  handler: PacketHandler;
  identity: Identity;
  licenseRoot: Uint8Array;
  /**
   * The full clientinit command text, sent once the session keys exist; given the block types of the
   * server's license chain, as the version to report can depend on the kind of server.
   */
  clientinit: (licenseBlockTypes: number[]) => string;
}

export type HandshakeStep = 'init1' | 'crypto' | 'clientinit-sent';

export class ClientHandshake {
  step: HandshakeStep = 'init1';
  /** Packet ids of the clientinit fragments (initserver acknowledges them). */
  clientinitIds: number[] = [];
  /** The block types of the server's license chain (a TeamSpeak 6 server's differ from a 3's). */
  licenseBlockTypes: number[] = [];
  private readonly alpha = randomBytes(ALPHA_BYTES);

  constructor(private readonly options: HandshakeOptions) {}

  start(): void {
    this.step = 'init1';
    this.options.handler.sendInit1(clientStep0(randomBytes(4), Math.floor(Date.now() / 1000)));
  }

  private get clientinitiv(): string {
    return buildCommand('clientinitiv', {
      alpha: this.alpha.toString('base64'),
      omega: this.options.identity.omega,
      ot: 1,
      ip: '',
    });
  }

  /** Handles an Init1 payload; an error ends the connection attempt. */
  onInit1(payload: Buffer): Result<void> {
    if (this.step !== 'init1') return ok(undefined);
    const parsed = parseServerInit1(payload);
    if (!parsed.ok) return parsed;
    const handler = this.options.handler;
    const server = parsed.value;
    if (server.step === INIT1_RESTART) {
      this.start();
    } else if (server.step === 1) {
      handler.sendInit1(clientStep2(server.payload));
    } else {
      const { x, n, level } = server.puzzle;
      if (level > MAX_PUZZLE_LEVEL) return err(`server puzzle level ${level} is absurd`);
      handler.sendInit1(clientStep4(server.payload, solvePuzzle(x, n, level), this.clientinitiv));
    }
    return ok(undefined);
  }

  /**
   * Handles `initivexpand2`: checks the proof, derives the server key from the license chain, sends
   * `clientek` (still under the fake key), switches to the session keys and sends `clientinit`.
   */
  onInitivexpand2(command: ParsedCommand): Result<void> {
    if (this.step === 'clientinit-sent') return ok(undefined);
    const handler = this.options.handler;
    handler.stopInit1();
    this.step = 'crypto';
    const f = command.items[0] ?? {};
    if (f.ot !== '1') return err('server does not speak the initivexpand2 protocol (ot != 1)');
    const license = Buffer.from(f.l ?? '', 'base64');
    const beta = Buffer.from(f.beta ?? '', 'base64');
    const proof = Buffer.from(f.proof ?? '', 'base64');
    if (beta.length !== BETA_BYTES) return err(`beta has ${beta.length} bytes, expected 54`);
    const serverKey = parseOmega(f.omega ?? '');
    if (!serverKey.ok) return err(`server omega: ${serverKey.error}`);
    if (!safeVerify(license, serverKey.value, proof)) return err('initivexpand2 proof does not verify');
    // A `root` field (TeaSpeak servers send one) is not trusted: a root picked by the server would let any
    // server pass the license check. A test server's root comes in as the licenseRoot option instead.
    const blocks = parseLicense(license);
    if (!blocks.ok) return err(`license: ${blocks.error}`);
    const derived = serverKeyOf(blocks.value, this.options.licenseRoot);
    if (!derived.ok) return err(`license: ${derived.error}`);
    this.licenseBlockTypes = blocks.value.map((b) => b.type);

    const ek = generateEphemeralKey();
    const ekProof = sign('sha256', Buffer.concat([ek.publicKey, beta]), this.options.identity.privateKey);
    handler.sendCommand(
      buildCommand('clientek', { ek: ek.publicKey.toString('base64'), proof: ekProof.toString('base64') }),
    );
    const iv = deriveSharedIv(sharedPoint(derived.value, ek.privateKey), this.alpha, beta);
    handler.setSession(new SessionKeys(iv));
    this.clientinitIds = handler.sendCommand(this.options.clientinit(this.licenseBlockTypes));
    this.step = 'clientinit-sent';
    return ok(undefined);
  }
}

function safeVerify(data: Buffer, key: KeyObject, signature: Buffer): boolean {
  try {
    return verify('sha256', data, key, signature);
  } catch {
    return false;
  }
}
