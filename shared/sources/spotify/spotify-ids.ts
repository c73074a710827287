/**
 * Spotify ids as the `streaming_a` source accepts them: a bare base-62 id (22 characters), a
 * `spotify:<kind>:<id>` URI or an open.spotify.com link (with or without a locale segment such as
 * `/intl-de/`), normalised to the id. Only ids of that shape are ever put into a Web API path.
 *
 * Shapes from Spotify's Web API concepts page "Spotify URIs and IDs".
 */

export type SpotifyKind = 'track' | 'album' | 'playlist';

const ID = /^[0-9A-Za-z]{22}$/;

export const trackUri = (id: string) => `spotify:track:${id}`;

/** The id of a `kind` item in `input`, or undefined. */
export function spotifyId(input: string, kind: SpotifyKind): string | undefined {
  const text = input.trim();
  if (ID.test(text)) return text;
  const uri = /^spotify:([a-z]+):([0-9A-Za-z]+)$/.exec(text);
  if (uri) return uri[1] === kind && ID.test(uri[2] ?? '') ? uri[2] : undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.hostname !== 'open.spotify.com') return undefined;
  const segments = url.pathname.split('/').filter((s) => s && !s.startsWith('intl-'));
  const [first, second] = segments;
  return first === kind && second && ID.test(second) ? second : undefined;
}
