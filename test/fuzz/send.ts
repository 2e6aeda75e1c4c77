/**
 * Sends one fuzz request and reads the whole answer, with a deadline: node:http for what
 * it accepts, a raw socket for what it refuses to send (control characters in the path,
 * broken framing). Each request has its own connection (`Connection: close`), so a request
 * that confuses the server cannot poison the next one.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { FuzzRequest } from './requests.ts';

export interface FuzzAnswer {
  /** 0 when the server closed the connection without an HTTP answer. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
  /** No answer (and no close) within the deadline. */
  hung: boolean;
}

export async function send(base: URL, req: FuzzRequest, deadlineMs: number): Promise<FuzzAnswer> {
  const started = performance.now();
  if (req.raw !== undefined) return sendRaw(base, Buffer.from(req.raw, 'latin1'), deadlineMs, started);
  // Framing headers of the request's own choosing, and HEAD (whose error answers may carry a
  // body node:http's parser then rejects), go out by hand.
  if (req.method === 'HEAD' || 'content-length' in req.headers || 'transfer-encoding' in req.headers)
    return sendRaw(base, serialize(base, req), deadlineMs, started);
  try {
    return await sendHttp(base, req, deadlineMs, started);
  } catch (err) {
    // node:http refuses to send it (control characters in the path, a bad header value):
    // send the same bytes by hand.
    if (!String((err as NodeJS.ErrnoException).code).startsWith('ERR_')) throw err;
    return sendRaw(base, serialize(base, req), deadlineMs, started);
  }
}

function sendHttp(base: URL, req: FuzzRequest, deadlineMs: number, started: number): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers, connection: 'close' };
    if (req.body !== undefined) headers['content-length'] = req.body.length;
    const outgoing = httpRequest({
      host: base.hostname,
      port: base.port,
      method: req.method,
      path: req.path,
      headers,
      agent: false,
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      resolve({ status: 0, headers: {}, body: Buffer.alloc(0), ms: performance.now() - started, hung: true });
    }, deadlineMs);
    outgoing.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
          hung: false,
        });
      });
      res.on('error', () => undefined);
    });
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // The server may answer early (413, 415) and close while the body is still going out.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE')
        resolve({ status: 0, headers: {}, body: Buffer.alloc(0), ms: performance.now() - started, hung: false });
      else reject(err);
    });
    outgoing.end(req.body);
  });
}

function serialize(base: URL, req: FuzzRequest): Buffer {
  const lines = [`${req.method} ${req.path} HTTP/1.1`, `host: ${base.host}`, 'connection: close'];
  for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${v}`);
  if (!('content-length' in req.headers) && !('transfer-encoding' in req.headers))
    lines.push(`content-length: ${req.body?.length ?? 0}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), req.body ?? Buffer.alloc(0)]);
}

function sendRaw(base: URL, bytes: Buffer, deadlineMs: number, started: number): Promise<FuzzAnswer> {
  return new Promise((resolve) => {
    const socket = connect(Number(base.port), base.hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (hung: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseRaw(Buffer.concat(chunks)), ms: performance.now() - started, hung });
    };
    const timer = setTimeout(() => finish(true), deadlineMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write(bytes));
  });
}

/** Status, headers and (de-chunked) body of the first answer on a raw connection. */
function parseRaw(data: Buffer): Omit<FuzzAnswer, 'ms' | 'hung'> {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: Buffer.alloc(0) };
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = data.subarray(end + 4);
  const length = Number(headers['content-length']);
  if (Number.isFinite(length)) body = body.subarray(0, length);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}
