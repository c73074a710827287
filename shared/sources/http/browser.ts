/**
 * What a request to a music platform sends to look like the platform's own web player: the platforms
 * (API and audio CDN alike) refuse or throttle clients that do not send a browser User-Agent.
 */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
