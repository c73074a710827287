/**
 * The QR-login state machine every platform's QR login runs (platform-login.ts `QrLogin`): `start` asks
 * the platform for a code and keeps what polling needs in the attempt's state; `poll` checks that state
 * is whole, asks the platform, and maps the platform's own code for the attempt to SPEC's four states:
 * its codes for waiting, scanned and expired as they are, its confirmed code by turning the answer into
 * the credential to store, and any other code into the platform's refusal sentence. A platform gives
 * its differences as data (its `QrFlow`): its requests, its codes and its sentences.
 */
import { err, ok, type Result } from '../../result';
import type { LoginProfile, QrLogin, QrPoll, QrStart, QrStatus } from '../platform-login';

/** A platform's own code for the state of an attempt. */
type QrCode = number | string;

export interface QrFlow<Answer> {
  /** Asks the platform for a new code. */
  start(): Promise<Result<QrStart>>;
  /** What `start` kept that every poll needs. */
  needs: readonly string[];
  /** The sentence for a poll whose state lacks one of `needs`. */
  incomplete: string;
  /** Asks the platform for the state of the attempt. */
  ask(state: Record<string, string>): Promise<Result<Answer>>;
  /** The platform's code in an answer. */
  codeOf(answer: Answer): QrCode;
  /** The platform's codes for the states before the end (or an expired code). */
  pending: Readonly<Record<QrCode, Exclude<QrStatus, 'confirmed'>>>;
  confirmed: QrCode;
  /** The sentence for an answer with any other code. */
  refused(answer: Answer): string;
  /** The credential to store and who it is, from a confirmed answer. */
  confirm(
    answer: Answer,
    state: Record<string, string>,
  ): Promise<Result<{ credential: string; profile: LoginProfile }>>;
}

export class QrLoginMachine<Answer> implements QrLogin {
  constructor(private readonly flow: QrFlow<Answer>) {}

  start(): Promise<Result<QrStart>> {
    return this.flow.start();
  }

  async poll(state: Record<string, string>): Promise<Result<QrPoll>> {
    const { flow } = this;
    if (flow.needs.some((key) => !state[key])) return err(flow.incomplete);
    const asked = await flow.ask(state);
    if (!asked.ok) return asked;
    const code = flow.codeOf(asked.value);
    const pending = flow.pending[code];
    if (pending) return ok({ status: pending });
    if (code !== flow.confirmed) return err(flow.refused(asked.value));
    const login = await flow.confirm(asked.value, state);
    return login.ok ? ok({ status: 'confirmed', ...login.value }) : login;
  }
}
