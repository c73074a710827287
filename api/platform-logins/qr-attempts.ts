/**
 * QR login attempts, kept in `qr_logins` so that any api replica can answer a poll. An attempt is named
 * by a random key the caller polls with; it belongs either to the shared login (no user) or to one
 * user's personal link, and is only found by polls of the same kind (another user's key is unknown).
 * Past its lifetime an attempt is expired without asking the platform again, and so is one that ended
 * (confirmed or expired): a second poll after confirmation answers from the row.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { Db } from '../../shared/db/client';
import { qrLogins } from '../../shared/db/schema';
import type { Platform } from '../../shared/domain/platforms';
import type { LoginProfile, QrLogin, QrStatus } from '../../shared/sources/platform-login';
import { ApiError } from '../errors';
import { platformFailure } from '../music/platform-failure';

/** How long a code may be scanned: the platforms' own codes last about 2 to 5 minutes. */
export const QR_ATTEMPT_LIFETIME_MS = 5 * 60_000;
/** Ended attempts are kept a day (a late poll still gets its answer), then deleted. */
const QR_ATTEMPT_RETENTION_MS = 24 * 60 * 60_000;
const KEY_BYTES = 24;

export interface QrCode {
  qrUrl: string;
  qrImg: string;
  key: string;
}

/** Whose attempt: the shared login's (`null`) or one user's personal link. */
export type QrOwner = string | null;

export class QrAttempts {
  constructor(private readonly db: Db) {}

  async start(platform: Platform, login: QrLogin, owner: QrOwner): Promise<QrCode> {
    const started = await login.start();
    if (!started.ok) throw platformFailure(platform, started.error);
    const { qrUrl, qrImg, state } = started.value;
    const key = randomBytes(KEY_BYTES).toString('base64url');
    const now = Date.now();
    await this.db.delete(qrLogins).where(lt(qrLogins.createdAt, new Date(now - QR_ATTEMPT_RETENTION_MS)));
    await this.db
      .insert(qrLogins)
      .values({ key, platform, userId: owner, status: 'waiting', state, createdAt: new Date(now) });
    return { qrUrl, qrImg: qrImg ?? (await QRCode.toDataURL(qrUrl)), key };
  }

  /**
   * The attempt's state, asking the platform while it is open. On confirmation `confirmed` stores the
   * login before the attempt is marked, so a failed store can be polled again.
   */
  async poll(
    key: string,
    platform: Platform,
    owner: QrOwner,
    login: QrLogin,
    confirmed: (credential: string, profile: LoginProfile) => Promise<void>,
  ): Promise<QrStatus> {
    const row = await this.db.query.qrLogins.findFirst({
      where: and(
        eq(qrLogins.key, key),
        eq(qrLogins.platform, platform),
        owner === null ? isNull(qrLogins.userId) : eq(qrLogins.userId, owner),
      ),
    });
    if (!row) throw new ApiError(404, 'no such QR login attempt');
    if (row.status === 'confirmed' || row.status === 'expired') return row.status;
    if (Date.now() - row.createdAt.getTime() > QR_ATTEMPT_LIFETIME_MS) return this.mark(key, 'expired');
    const polled = await login.poll(row.state);
    if (!polled.ok) throw platformFailure(platform, polled.error);
    const answer = polled.value;
    if (answer.status === 'confirmed') await confirmed(answer.credential, answer.profile);
    return answer.status === row.status ? answer.status : this.mark(key, answer.status);
  }

  private async mark(key: string, status: QrStatus): Promise<QrStatus> {
    await this.db.update(qrLogins).set({ status }).where(eq(qrLogins.key, key));
    return status;
  }
}
