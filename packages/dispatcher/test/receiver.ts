import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the sender must time out). */
  hang?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
}

export interface TestReceiver {
  url: (path?: string) => string;
  received: Received[];
  /** Decides each reply; change it mid-test to simulate outages. */
  respond: (req: Received) => Reply;
  /** Requests being handled right now (concurrency measurement). */
  active: () => number;
  maxActive: () => number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1, port 0, with a programmable answer per request. */
export async function startReceiver(
  respond: (req: Received) => Reply = () => ({ status: 200 }),
): Promise<TestReceiver> {
  let active = 0;
  let maxActive = 0;
  const receiver: TestReceiver = {
    url: (path = '/plant/webhook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    respond,
    active: () => active,
    maxActive: () => maxActive,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      receiver.received.push(entry);
      active += 1;
      maxActive = Math.max(maxActive, active);
      res.on('close', () => (active -= 1));
      const reply = receiver.respond(entry);
      if (reply.hang) return;
      const finish = () => res.writeHead(reply.status ?? 200, reply.headers).end(reply.body ?? '');
      if (reply.delayMs) setTimeout(finish, reply.delayMs);
      else finish();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}
