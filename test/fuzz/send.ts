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

/** The body in the pieces a trickled delivery writes: at most 40, so one takes at most 40 pauses. */
function pieces(body: Buffer, chunkBytes: number): Buffer[] {
  const size = Math.max(chunkBytes, Math.ceil(body.length / 40));
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) out.push(body.subarray(at, at + size));
  return out;
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
    let settled = false;
    let answered = false;
    const settle = (answer: Omit<FuzzAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      outgoing.destroy();
      settle({ status: 0, headers: {}, body: Buffer.alloc(0), hung: true });
    }, deadlineMs);
    outgoing.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      const done = () =>
        settle({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
          hung: false,
        });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', done);
      // Closed after the head: the answer is what arrived (judged on its status and body).
      res.on('close', done);
      res.on('error', () => undefined);
    });
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      // The server may answer early (413, 415) and close while the body is still going out.
      if (answered) return;
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE')
        settle({ status: 0, headers: {}, body: Buffer.alloc(0), hung: false });
      else if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(err);
      }
    });
    if (!req.trickle || !req.body?.length) {
      outgoing.end(req.body);
      return;
    }
    // Trickled: a piece, a pause, the next — until the body is out or the server has answered.
    const rest = pieces(req.body, req.trickle.chunkBytes);
    const { everyMs } = req.trickle;
    const drip = () => {
      if (answered || settled || outgoing.destroyed) return;
      const piece = rest.shift();
      if (!piece) return void outgoing.end();
      outgoing.write(piece);
      setTimeout(drip, everyMs);
    };
    drip();
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
