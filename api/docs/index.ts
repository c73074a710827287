/**
 * The OpenAPI document (GET /api/openapi.json) and the Swagger UI try-it page (GET /api/docs).
 * Swagger UI's assets are served from the swagger-ui-dist package by the app itself, so the page
 * works offline and no CDN sees who uses the API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import type { AppEnv } from '../env';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>TeamSpeak 3 Music Bot API</title>
  <link rel="icon" href="/api/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/assets/init.js"></script>
</body>
</html>`;

// Kept as a file rather than inline so a strict Content-Security-Policy needs no 'unsafe-inline'.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  withCredentials: true,
  tryItOutEnabled: true,
});`;

export function docsRoutes(document: () => unknown) {
  const assetDir = getAbsoluteFSPath();
  const cache = new Map<string, Buffer>();
  return new Hono<AppEnv>()
    .get('/api/openapi.json', (c) => c.json(document()))
    .get('/api/docs', (c) => c.html(PAGE))
    .get('/api/docs/assets/init.js', (c) =>
      c.body(INIT_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
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
