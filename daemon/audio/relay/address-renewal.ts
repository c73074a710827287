/**
 * A platform's stream address is signed and expires (minutes to hours after the song was resolved).
 * Once it has, a request for it is refused (403, 404 or 410 by platform): ffmpeg's reconnect with a
 * Range after a long pause dropped the connection, or a seek's new decoder opening it again. Then the
 * relay asks the stream's owner for a fresh address (the song resolved again from its source, as its
 * play did) and sends the same request there, so ffmpeg goes on at the same position without noticing.
 *
 * Once per refusal: a fresh address that is refused in turn before it has served any audio is not
 * renewed again, and the refusal reaches ffmpeg, so the song fails as any refused stream does (the bot
 * says so and the queue moves on). A fresh address that has served audio may be renewed when it expires
 * in its turn. A request refused while a renewal is under way waits for that one, and one refused with
 * an address already replaced goes to the new one: a renewal is asked once for all of them.
 */
import { logger } from '../../../shared/logger';
import type { HttpHeaders } from '../decode/decoder-input';

/** How CDNs refuse an expired signed address (by platform: a bad signature, a link gone, gone for good). */
export const EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 404, 410]);

/** A platform's stream address and the headers it is fetched with. */
export interface PlatformAddress {
  url: string;
  headers?: HttpHeaders;
}

/** Resolves the stream again: a fresh address, or undefined when the source has none. Never throws. */
export type AddressRenewer = () => Promise<PlatformAddress | undefined>;

const log = logger('audio.relay');

export class RenewableAddress {
  private address: PlatformAddress;
  /** Whether a refusal of the current address may be answered with a renewal. */
  private renewable: boolean;
  private renewing: Promise<PlatformAddress | undefined> | undefined;

  constructor(
    address: PlatformAddress,
    private readonly renewer: AddressRenewer | undefined,
  ) {
    this.address = address;
    this.renewable = renewer !== undefined;
  }

  /** The address requests go to now. */
  get current(): PlatformAddress {
    return this.address;
  }

  /**
   * `refused` (an address of this stream) was answered with `status`: the address to send the same
   * request to instead, or undefined when the refusal stands.
   */
  async renew(refused: PlatformAddress, status: number): Promise<PlatformAddress | undefined> {
    if (!EXPIRED_STATUSES.has(status) || !this.renewer) return undefined;
    if (this.renewing) return this.renewing;
    if (refused !== this.address) return this.address;
    if (!this.renewable) {
      log.info({ status }, 'the renewed stream address is refused too');
      return undefined;
    }
    this.renewable = false;
    log.info({ status }, 'the stream address is refused, as an expired one is: resolving it again');
    const renewing = this.resolveAgain(this.renewer);
    this.renewing = renewing;
    void renewing.finally(() => {
      if (this.renewing === renewing) this.renewing = undefined;
    });
    return renewing;
  }

  private async resolveAgain(renewer: AddressRenewer): Promise<PlatformAddress | undefined> {
    try {
      const fresh = await renewer();
      if (fresh) this.address = fresh;
      else log.info('the stream could not be resolved again');
      return fresh;
    } catch (error) {
      log.warn({ err: error }, 'the stream could not be resolved again');
      return undefined;
    }
  }

  /** `address` answered with audio: when it expires in its turn, it may be renewed again. */
  served(address: PlatformAddress): void {
    if (address === this.address && this.renewer) this.renewable = true;
  }
}
