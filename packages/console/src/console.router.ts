/**
 * Serves the built console under /console: hashed assets (cached for a year), config.json
 * (where the OAuth server is and which client id to use), an optional sample file, and
 * index.html for every other path so the app's own routes survive a reload. A missing
 * asset is not one of those routes: it leaves the router, and the app's 404 answers it.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import express, { Router, type Response } from 'express';

export interface ConsoleRouterOptions {
  /** The build folder (ensureConsoleBuilt().dir). */
  dir: string;
  /** Public base URL of the OAuth server (the tokens' issuer). */
  issuer: string;
  /** Public client id the console signs in with (CONSOLE_CLIENT_ID of @skiptrace/contracts). */
  clientId: string;
  /** A sample CSV offered on the Batches page (the standalone's demo file); absent: none. */
  sampleCsv?: string;
}

/** Content-Security-Policy: own scripts only; fetches to the API (same origin) and the OAuth server. */
function securityHeaders(res: Response, issuer: string): void {
  const issuerOrigin = new URL(issuer).origin;
  res.set({
    'Content-Security-Policy': [
      "default-src 'self'",
      `connect-src 'self' ${issuerOrigin}`,
      "img-src 'self' data: blob:",
      "style-src 'self' 'unsafe-inline'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      `form-action 'self' ${issuerOrigin}`,
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  });
}

export async function createConsoleRouter(options: ConsoleRouterOptions): Promise<Router> {
  const index = await readFile(join(options.dir, 'index.html'));
  const config = {
    issuer: options.issuer,
    clientId: options.clientId,
    apiBase: '/api/v1',
    sampleCsv: options.sampleCsv ? 'sample.csv' : null,
  };
  const router = Router();
  router.use((req, res, next) => {
    // /console without the slash: relative asset URLs need the folder form.
    if (req.originalUrl === req.baseUrl) return res.redirect(301, `${req.baseUrl}/`);
    securityHeaders(res, options.issuer);
    next();
  });
  router.get('/config.json', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(config);
  });
  if (options.sampleCsv) {
    // sendFile needs an absolute path; SKIPTRACE_DATA_DIR (and so the sample) may be relative.
    const sample = resolve(options.sampleCsv);
    router.get('/sample.csv', (_req, res) => {
      res.set('Content-Disposition', 'attachment; filename="sample-properties.csv"');
      res.type('text/csv').sendFile(sample);
    });
  }
  router.use(
    '/assets',
    express.static(join(options.dir, 'assets'), { immutable: true, maxAge: '365d' }),
    // Not index.html (a script tag would get a page), not the stat error (a 500): the app's 404.
    (_req, _res, next) => next('router'),
  );
  router.use(express.static(options.dir, { index: false, maxAge: 0 }));
  router.get('/{*path}', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('html').send(index);
  });
  return router;
}
