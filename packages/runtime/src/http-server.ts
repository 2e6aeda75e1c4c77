/**
 * The one HTTP server factory of every process (gateway, auth, worker, dispatcher,
 * standalone): slow or broken clients cannot hold a connection, and whatever Node's own
 * HTTP parser refuses is answered with the Error body too.
 *
 * Timeouts (the model is Apache's mod_reqtimeout, `header=10 body=20,MinRate=1024`):
 * - headers: the request head must arrive within `headersTimeoutMs` → 408, closed;
 * - body: a request body gets `bodyTimeoutMs`, plus one second for every
 *   `minBodyBytesPerSecond` bytes received, so a stalled body (Content-Length larger than
 *   what is sent) or one dripped slowly is answered 408 and closed within `bodyTimeoutMs`
 *   of its last useful progress, while a large upload at a sane rate is never cut. Time the
 *   server itself is not reading (a route applying backpressure) is not held against it;
 * - idle: a connection with no traffic either way for `idleTimeoutMs` is closed, and one
 *   kept alive between requests for `keepAliveTimeoutMs`.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CODES, type ErrorName } from '@skiptrace/contracts';
import type { Logger } from 'pino';
import { ApiError, isOAuthSurface, oauthErrorBody } from './api-error.ts';

export interface HttpServerOptions {
  /** The request line and headers must arrive within this, ms. Default 10,000. */
  headersTimeoutMs: number;
  /** A request body's base allowance, ms. Default 20,000. */
  bodyTimeoutMs: number;
  /** Each this many bytes received extends the body allowance by one second. Default 1,024. */
  minBodyBytesPerSecond: number;
  /** A connection with no traffic either way is closed after this, ms. Default 120,000. */
  idleTimeoutMs: number;
  /** An idle kept-alive connection is closed after this, ms. Default 5,000. */
  keepAliveTimeoutMs: number;
  /** Largest request head (line and headers), bytes; larger → 431. Default 16,384. */
  maxHeaderBytes: number;
  logger?: Logger;
}

export const HTTP_SERVER_DEFAULTS: HttpServerOptions = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 20_000,
  minBodyBytesPerSecond: 1_024,
  idleTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16_384,
};

/** How often running request bodies are checked, ms. */
const TICK_MS = 1_000;

/** The raw HTTP/1.1 answer for a connection the request/response cycle cannot serve. */
export function rawErrorResponse(kind: ErrorName, message: string): string {
  const { status, code } = ERROR_CODES[kind];
  const body = JSON.stringify({ error: code, message });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** What Node's parser refused, in words a client can act on. */
function describeClientError(err: NodeJS.ErrnoException & { reason?: string }): [ErrorName, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['headers_too_large', 'request headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return ['request_timeout', 'request headers did not arrive in time'];
    case 'HPE_INVALID_METHOD':
      return ['malformed_request', 'unknown HTTP method'];
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return ['malformed_request', 'duplicate or conflicting Content-Length / Transfer-Encoding headers'];
    case 'HPE_INVALID_CHUNK_SIZE':
      return ['malformed_request', 'malformed chunked body'];
    default:
      return ['malformed_request', `malformed HTTP request${err.reason ? `: ${err.reason}` : ''}`];
  }
}

interface Watched {
  req: IncomingMessage;
  socket: Socket;
  /** socket.bytesRead when the body started. */
  base: number;
  /** When the allowance ends unless more bytes arrive, ms since epoch. */
  deadline: number;
  respond(): void;
}

/** Builds (does not listen) a server for `handler` with the timeouts above. */
export function createHttpServer(handler: RequestListener, options: Partial<HttpServerOptions> = {}): Server {
  const o = { ...HTTP_SERVER_DEFAULTS, ...options };
  const server = createServer({
    headersTimeout: o.headersTimeoutMs,
    // The whole-request cap is replaced by the rate-aware body watchdog below.
    requestTimeout: 0,
    connectionsCheckingInterval: TICK_MS,
    keepAliveTimeout: o.keepAliveTimeoutMs,
    maxHeaderSize: o.maxHeaderBytes,
  });
  server.timeout = o.idleTimeoutMs;

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const [kind, message] = describeClientError(err);
    o.logger?.debug({ code: err.code, kind }, 'refused a malformed request');
    socket.end(rawErrorResponse(kind, message));
  });

  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = Date.now();
    for (const w of watched) {
      if (w.req.complete) {
        watched.delete(w);
        continue;
      }
      // Time the route itself spends not reading (its buffer is full) is not the client's.
      if (w.req.readableLength >= w.req.readableHighWaterMark) w.deadline += TICK_MS;
      const received = w.socket.bytesRead - w.base;
      const allowance = w.deadline + (received / o.minBodyBytesPerSecond) * 1000;
      if (now > allowance) {
        watched.delete(w);
        w.respond();
      }
    }
    if (watched.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  // CONNECT asks a proxy for a tunnel; without a listener Node drops the connection unanswered.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(rawErrorResponse('malformed_request', 'CONNECT is not supported: this server is not a proxy'));
  });

  const onRequest: RequestListener = (req, res) => {
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (hasBody && !req.complete) {
      const w: Watched = {
        req,
        socket: req.socket,
        base: req.socket.bytesRead,
        deadline: Date.now() + o.bodyTimeoutMs,
        respond() {
          o.logger?.info({ method: req.method, url: req.url }, 'request body too slow; answered 408');
          if (!res.headersSent) {
            // In the shape of the request's surface: RFC 6749's under /oauth, the Error body elsewhere.
            const err = new ApiError('request_timeout', 'request body did not arrive in time');
            const oauth = isOAuthSurface(req.url ?? '');
            const body = JSON.stringify(oauth ? oauthErrorBody(err) : err.body());
            res.writeHead(err.status, {
              'Content-Type': 'application/json; charset=utf-8',
              'Content-Length': Buffer.byteLength(body),
              Connection: 'close',
              ...(oauth ? { 'Cache-Control': 'no-store' } : {}),
            });
            res.end(body, () => req.socket.destroy());
          } else req.socket.destroy();
        },
      };
      req.once('close', () => watched.delete(w));
      watched.add(w);
      timer ??= setInterval(tick, TICK_MS).unref();
    }
    handler(req, res);
  };
  server.on('request', onRequest);
  // An Expect other than 100-continue: Node's default answers 417 with an empty body.
  // RFC 9110 §10.1.1 lets a server ignore an expectation it does not know; serve the request.
  server.on('checkExpectation', onRequest);
  server.on('close', () => {
    clearInterval(timer);
    watched.clear();
  });
  return server;
}
