/**
 * Where the service lives as the browser sees it. The server writes `BASE_PATH` into the page's
 * `<base href>`, so the router, the API client and the socket all start from `document.baseURI`.
 */
export const basePath = new URL(document.baseURI).pathname.replace(/\/+$/, '');

/** The logo, served next to index.html; relative, so it follows the base path. */
export const LOGO = 'favicon.svg';

export const apiBaseUrl = `${location.origin}${basePath}`;

export const socketUrl = (): string =>
  `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${basePath}/ws`;
