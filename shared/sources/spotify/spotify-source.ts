/**
 * The `streaming_a` source at play time: Spotify's audio comes from librespot (the sidecar, see
 * librespot.ts), never from a URL of Spotify's. Resolving a song checks what can be checked at once —
 * the source is configured, librespot is installed, the account is logged in and knows the track —
 * and answers a loopback URL of the PCM relay (pcm-relay.ts); the decoder's request to it starts
 * librespot and the track. The track's length from the Web API ends the stream, since librespot
 * idles after a track rather than exiting.
 *
 * A login librespot has not yet been seen to log in with (the first song, a renewed token, librespot's
 * own login just made) is tried first, logging in and out: when Spotify turns it away, the song fails
 * with that refusal in words, not as a stream that could not be decoded.
 *
 * One Spotify account plays on one device at a time: two bots playing Spotify at once take the
 * playback from each other (Spotify's rule, not ours).
 */
import { err, ok, type Result } from '../../result';
import { refusal, refusalKind } from '../http/refusals';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import { DEFAULT_LIBRESPOT } from './librespot';
import { checkLibrespotLogin, currentLoginKey, type LibrespotOptions, startLibrespot } from './librespot-run';
import { librespotStatus } from './librespot-status';
import { PcmRelay, type RelayOptions } from './pcm-relay';
import type { SpotifyClient } from './spotify-client';
import { spotifyId } from './spotify-ids';
import { TrackSchema } from './spotify-schemas';

export interface SpotifySourceOptions extends LibrespotOptions {
  relay?: RelayOptions;
}

export class SpotifySource implements MusicSource {
  readonly platform = 'streaming_a' as const;
  private readonly relay: PcmRelay;
  private readonly librespotPath: string;
  /**
   * Spotify turned librespot's login away (its key, see currentLoginKey): later songs say so at once,
   * in the words the bot's reader gets (a refusal of its kind), instead of each failing to decode. A
   * renewed or new login is tried again.
   */
  private refusedLogin: { key: string; why: string } | undefined;
  /** The login librespot last logged in with: songs on it are not checked again. */
  private provenLogin: string | undefined;

  constructor(
    private readonly client: SpotifyClient,
    private readonly options: SpotifySourceOptions = {},
  ) {
    this.librespotPath = options.path ?? DEFAULT_LIBRESPOT;
    this.relay = new PcmRelay(async (track) => {
      const key = await this.loginKey();
      const run = await startLibrespot(client, track.trackId, { ...options, path: this.librespotPath });
      this.learn(key, run);
      return run;
    }, options.relay);
  }

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const configured = await this.client.configured();
    if (!configured.ok) return configured;
    const refused = await this.loginRefused();
    if (refused) return err(refused);
    const trackId = spotifyId(song.id, 'track');
    if (!trackId) return err(`"${song.id}" is not a Spotify track id or link`);
    // At once rather than in turn: a play waits for all three (the bus gives it a few seconds), and
    // they are said in this order.
    const [sidecar, track, login] = await Promise.all([
      librespotStatus(this.librespotPath),
      this.client.find(`/tracks/${trackId}`, { market: 'from_token' }, TrackSchema),
      this.checkLogin(),
    ]);
    if (!sidecar.available) return err(sidecar.reason);
    if (!track.ok) return track;
    if (!track.value) return err(refusal.notFound('Spotify', 'track', trackId));
    if (track.value.is_playable === false) return err(refusal.regionBlocked('Spotify', `track ${trackId}`));
    if (!login.ok) return login;
    const url = await this.relay.urlFor({ trackId, durationMs: track.value.duration_ms });
    return ok({ input: { kind: 'url', url, servedLocally: true } });
  }

  /** Logs librespot in once with a login it has not been seen to log in with. */
  private async checkLogin(): Promise<Result<void>> {
    const key = await this.loginKey();
    if (key !== undefined && key === this.provenLogin) return ok(undefined);
    const checked = await checkLibrespotLogin(this.client, { ...this.options, path: this.librespotPath });
    this.learn(key, checked);
    return checked;
  }

  /** What a run or a check with the login `key` showed of it: it logs in, or Spotify turned it away. */
  private learn(key: string | undefined, outcome: Result<unknown>): void {
    if (key === undefined) return;
    if (outcome.ok) this.provenLogin = key;
    else if (isLoginRefusal(outcome.error)) this.refusedLogin = { key, why: outcome.error };
  }

  /** Why the current login cannot play, when Spotify already turned it away. */
  private async loginRefused(): Promise<string | undefined> {
    const refused = this.refusedLogin;
    if (!refused) return undefined;
    return (await this.loginKey()) === refused.key ? refused.why : undefined;
  }

  private loginKey(): Promise<string | undefined> {
    return currentLoginKey(this.client, this.options.credentials);
  }

  /** Stops the relay's server (tests; the daemon keeps it for its lifetime). */
  close(): Promise<void> {
    return this.relay.close();
  }
}

const isLoginRefusal = (sentence: string): boolean => {
  const kind = refusalKind(sentence);
  return kind === 'tokenRefused' || kind === 'loginExpired';
};
