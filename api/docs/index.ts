/**
 * The OpenAPI document (GET /api/openapi.json) and the Swagger UI try-it page (GET /api/docs).
 * Swagger UI's assets are served from the swagger-ui-dist package by the app itself, so the page
 * works offline and no CDN sees who uses the API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import type { AppConfig } from '../../shared/config';
import type { AppEnv } from '../env';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The page, its links under the base path the browser reaches the service at (BASE_PATH). */
const page = (base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>TeamSpeak 3 Music Bot API</title>
  <link rel="icon" href="${base}/api/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="${base}/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/api/docs/assets/init.js"></script>
</body>
</html>`;

// Kept as a file rather than inline so a strict Content-Security-Policy needs no 'unsafe-inline'.
const initScript = (base: string) => `window.ui = SwaggerUIBundle({
  url: '${base}/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  withCredentials: true,
  tryItOutEnabled: true,
});`;

/**
 * The document's `servers` entry: PUBLIC_URL when set (it includes any sub-path), else the base path,
 * so a try-it call from the page goes where the page came from.
 */
export function serverUrl(config: Pick<AppConfig, 'publicUrl' | 'basePath'>): string {
  return config.publicUrl?.replace(/\/+$/, '') || config.basePath || '/';
}

/** `basePath`: BASE_PATH without a trailing slash ('' at the root). */
export function docsRoutes(document: () => unknown, basePath: string) {
  const assetDir = getAbsoluteFSPath();
  const cache = new Map<string, Buffer>();
  const html = page(basePath);
  const init = initScript(basePath);
  return new Hono<AppEnv>()
    .get('/api/openapi.json', (c) => c.json(document()))
    .get('/api/docs', (c) => c.html(html))
    .get('/api/docs/assets/init.js', (c) =>
      c.body(init, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
    )
    .get('/api/docs/assets/:file', (c) => {
      const file = c.req.param('file');
      const type = ASSETS[file];
      if (!type) return c.json({ error: 'no such asset' }, 404);
      let body = cache.get(file);
      if (!body) {
        body = readFileSync(join(assetDir, file));
        cache.set(file, body);
      }
      return c.body(new Uint8Array(body), 200, {
        'content-type': type,
        'cache-control': 'public, max-age=86400',
      });
    });
}
