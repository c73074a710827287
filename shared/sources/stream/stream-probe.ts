/**
 * What is behind an audio address: it is fetched through the request-forgery guard (guarded-fetch.ts),
 * playlists are followed to their first entry, and the answer must be audio. Used by the catalog (to
 * answer a Song) and by the source at play time (the address ffmpeg reads, and how).
 */
import { type FetchFailure, type GuardedAnswer, guardedFetch } from '../../net/guarded-fetch';
import { err, ok, type Result } from '../../result';
import { isPlaylistAnswer, parsePlaylist } from './stream-playlists';

export interface ProbedStream {
  /** The address whose answer is the audio (or the HLS playlist), after playlists and redirects. */
  url: string;
  /** An HLS playlist: ffmpeg reads it and its segments through the relay. */
  hls: boolean;
  /** A live stream (radio): it has no length and cannot seek. */
  live: boolean;
  /** The station's name (ICY `icy-name`), when it says one. */
  stationName: string | undefined;
  /** Length in seconds when the answer says it cannot be otherwise (never for live streams). */
  durationSeconds: number;
}

/** A playlist may name a playlist; one more level is followed, no further. */
const MAX_PLAYLIST_DEPTH = 2;
/** The most of a playlist that is read: real ones are a few hundred bytes. */
export const MAX_PLAYLIST_BYTES = 64 * 1024;
/** A player-like User-Agent: some radio servers refuse requests without one. */
export const STREAM_USER_AGENT = 'ts3-music-bot (like VLC)';

/** Content types that are audio whatever the address says. */
const AUDIO_TYPE = /^(audio\/|application\/ogg$|video\/mp2t$)/;

/** How long a whole probe may take: every hop, playlist and the first bytes of the audio. */
export const PROBE_TIMEOUT_MS = 15_000;

export interface ProbeOptions {
  allowPrivateHosts: boolean;
  timeoutMs?: number;
}

/** `undefined`: there is nothing at the address (404, 410). */
export async function probeStream(
  url: string,
  options: ProbeOptions,
): Promise<Result<ProbedStream | undefined, FetchFailure>> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS);
  let address = url;
  for (let depth = 0; depth <= MAX_PLAYLIST_DEPTH; depth++) {
    const answer = await guardedFetch(address, {
      allowPrivateHosts: options.allowPrivateHosts,
      headers: { 'icy-metadata': '1', 'user-agent': STREAM_USER_AGENT },
      signal,
    });
    if (!answer.ok) return answer;
    const { response, url: answeredUrl } = answer.value;
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return ok(undefined);
    }
    if (!response.ok) {
      await response.body?.cancel();
      return err({ kind: 'failed', message: `${new URL(answeredUrl).host} answered ${response.status}` });
    }
    const contentType = mediaType(response);
    if (!isPlaylistAnswer(contentType, answeredUrl)) return audioAnswer(answer.value, contentType);
    const playlist = parsePlaylist(await boundedText(response, MAX_PLAYLIST_BYTES), answeredUrl);
    if (playlist.kind === 'hls') {
      return ok({
        url: answeredUrl,
        hls: true,
        live: playlist.live,
        stationName: undefined,
        durationSeconds: 0,
      });
    }
    if (playlist.kind === 'empty') return err({ kind: 'refused', message: 'the playlist names no stream' });
    address = playlist.url;
  }
  return err({ kind: 'refused', message: 'the playlist only names more playlists' });
}

async function audioAnswer(
  { response, url }: GuardedAnswer,
  contentType: string,
): Promise<Result<ProbedStream, FetchFailure>> {
  const first = await firstChunk(response);
  if (!AUDIO_TYPE.test(contentType) && !(first && looksLikeAudio(first))) {
    return err({
      kind: 'refused',
      message: `the address answers ${contentType || 'something'} that is not audio`,
    });
  }
  const icyName = response.headers.get('icy-name')?.trim();
  const icy = response.headers.has('icy-metaint') || response.headers.has('icy-br') || Boolean(icyName);
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  return ok({
    url,
    hls: false,
    live: icy || !Number.isFinite(length),
    stationName: icyName || undefined,
    durationSeconds: 0,
  });
}

/** The content type without its parameters, in lower case. */
function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Reads the first chunk and lets the rest go (a radio stream never ends by itself). */
async function firstChunk(response: Response): Promise<Uint8Array | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
  await reader.cancel().catch(() => undefined);
  return chunk.value;
}

/** The openings of the formats ffmpeg plays: for servers that send audio as bytes or as nothing. */
function looksLikeAudio(bytes: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 12));
  if (/^(ID3|OggS|fLaC|RIFF|MAC |wvpk)/.test(text) || text.slice(4, 8) === 'ftyp') return true;
  // An MPEG audio or ADTS (AAC) frame sync: eleven set bits.
  return bytes.length > 1 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
}

/** At most `limit` bytes of the body as text; the rest is not read. */
export async function boundedText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // Cut off (the probe's time ran out): what arrived is all there is.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}
