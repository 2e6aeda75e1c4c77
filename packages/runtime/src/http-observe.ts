import type { Request, RequestHandler } from 'express';
import { metricsEnabled, recordHttpRequest } from './metrics.ts';
import { extractTraceContext, runInContext, SpanKind, startSpan } from './tracing.ts';

const ROUTE = Symbol('skiptrace.route');
type Labelled = Request & { [ROUTE]?: string };
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Names the route of a request that no Express route matches (e.g. a mounted non-Express
 * app such as oidc-provider). Must be a template, never a raw path with ids in it.
 */
export function labelRoute(req: Request, template: string): void {
  (req as Labelled)[ROUTE] = template;
}

/**
 * Per request: a server span (child of the caller's `traceparent`) and the
 * skiptrace_http_* metrics, labelled by method, route template and status class. The route
 * is the matched Express route's pattern with its mount path (captured when the router
 * assigns req.route, while req.baseUrl is still the mount path), or a label set with
 * labelRoute(), else `unmatched`: never a raw path. Applied once even when apps are nested.
 */
export function observeHttp(): RequestHandler {
  return (req, res, next) => {
    const r = req as Labelled;
    if (r[ROUTE] !== undefined) return next();
    r[ROUTE] = '';
    let route: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: { path?: unknown } | undefined) {
        route = value;
        if (value?.path !== undefined) r[ROUTE] = `${req.baseUrl}${String(value.path)}`;
      },
    });
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    const started = process.hrtime.bigint();
    const { span, context } = startSpan(`${method}`, {
      kind: SpanKind.SERVER,
      parent: extractTraceContext(req.headers),
      attributes: { 'http.request.method': method },
    });
    res.once('finish', () => {
      const labels = { method, route: r[ROUTE] || 'unmatched', status_class: `${Math.floor(res.statusCode / 100)}xx` };
      if (metricsEnabled()) recordHttpRequest(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (span.isRecording()) {
        span.updateName(`${method} ${labels.route}`);
        span.setAttributes({ 'http.route': labels.route, 'http.response.status_code': res.statusCode });
        if (res.statusCode >= 500) span.setStatus({ code: 2 });
      }
      span.end();
    });
    runInContext(context, next);
  };
}
