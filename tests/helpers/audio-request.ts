/**
 * What a platform's audio host receives when the daemon plays a song its adapter resolved: the stream
 * goes through the daemon's real stream relay (daemon/audio/relay/stream-relay.ts), asked on its loopback URL
 * as ffmpeg asks it, and the relay's request to the platform's audio URL (its real host and shape) is
 * answered by an msw stand-in that records the URL and every header it was sent. A test then asserts
 * exactly which headers reached the audio host: no login cookie or token where it does not belong.
 */
import { HttpResponse, http } from 'msw';
import { StreamRelay } from '../../daemon/audio/relay/stream-relay';
import type { Result } from '../../shared/result';
import type { ResolvedStream } from '../../shared/sources/music-source';
import { useMswServer } from './msw-server';

/** The User-Agent ffmpeg sends; the relay passes it on when the source names none of its own. */
export const FFMPEG_USER_AGENT = 'Lavf/60.16.100';

export interface AudioRequest {
  url: string;
  headers: Record<string, string>;
}

export interface AudioHosts {
  /** Plays a resolved stream through a stream relay and returns the one request its audio host got. */
  play(resolved: Result<ResolvedStream>): Promise<AudioRequest>;
}

/**
 * Stands in for the audio hosts whose URLs `urls` matches (over http or https, as the test says).
 * `answeredBy: 'platform'`: the platform's own stand-in serves the audio (a media server's), so this one
 * only records and passes the request on; it must then be used before that stand-in.
 */
export function useAudioHosts(
  urls: RegExp,
  answeredBy: 'audio host' | 'platform' = 'audio host',
): AudioHosts {
  const requests: AudioRequest[] = [];
  useMswServer(
    http.get(urls, ({ request }) => {
      requests.push({ url: request.url, headers: Object.fromEntries(request.headers) });
      if (answeredBy === 'platform') return undefined;
      return new HttpResponse(new Uint8Array(64), { headers: { 'content-type': 'audio/mpeg' } });
    }),
  );
  return {
    async play(resolved) {
      if (!resolved.ok) throw new Error(resolved.error);
      const { input } = resolved.value;
      if (input.kind !== 'url') throw new Error(`the stream is a ${input.kind}, not a URL`);
      const relay = new StreamRelay();
      const stream = relay.open(
        { url: input.url, ...(input.headers && { headers: input.headers }) },
        { stallMs: 10_000, onStall: () => undefined },
      );
      const before = requests.length;
      try {
        const answer = await fetch(await stream.url, { headers: { 'user-agent': FFMPEG_USER_AGENT } });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`the relay answered ${answer.status}`);
      } finally {
        stream.close();
      }
      const sent = requests.slice(before);
      if (sent.length !== 1) throw new Error(`the audio host got ${sent.length} requests`);
      return sent[0]!;
    },
  };
}
