/**
 * The interactive API reference at /api/v1/docs: Swagger UI from the installed
 * swagger-ui-dist package (nothing is fetched from elsewhere at run time) over
 * /api/v1/openapi.json. The page's script is a file, not inline, so the CSP stays strict.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = (base: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skip-trace API reference</title>
<link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="${base}/docs/docs.css">
<link rel="icon" href="data:,">
</head>
<body>
<header class="docs-bar"><strong>Skip-trace API</strong><a href="/console/">Open the console</a></header>
<main id="swagger-ui"></main>
<script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
<script src="${base}/docs/init.js"></script>
</body>
</html>`;

// The document sits beside the docs: /api/v1/docs/init.js → /api/v1/openapi.json.
const init = `window.ui = SwaggerUIBundle({
  url: new URL('../openapi.json', document.currentScript.src).href,
  dom_id: '#swagger-ui',
  // No badge from the public validator service: the page fetches nothing but this server.
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: false,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});`;

const css = `body{margin:0;font-family:system-ui,sans-serif}
.docs-bar{display:flex;justify-content:space-between;align-items:center;padding:12px 24px;background:#0f172a;color:#fff}
.docs-bar a{color:#c7d2fe}
.swagger-ui .topbar{display:none}`;

export function createDocsRouter(): Router {
  const router = Router();
  const headers = (res: express.Response) =>
    res.set({
      'Content-Security-Policy':
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      'X-Content-Type-Options': 'nosniff',
    });
  router.get('/docs', (req, res) => {
    headers(res).set('Cache-Control', 'no-cache').type('html').send(page(req.baseUrl));
  });
  router.get('/docs/init.js', (_req, res) => {
    headers(res).type('js').send(init);
  });
  router.get('/docs/docs.css', (_req, res) => {
    headers(res).type('css').send(css);
  });
  router.use('/docs/assets', express.static(swaggerDir, { maxAge: '1d', index: false, fallthrough: true }));
  return router;
}
