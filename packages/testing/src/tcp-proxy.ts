/**
 * A TCP proxy in front of a shared service, for outage tests that must not disturb anyone
 * else: stop() refuses new connections and cuts the open ones (as a crashed server
 * would), start() accepts again on the same port. Point the client at proxy.port.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** Local port the proxy listens on (stays the same across stop/start). */
  readonly port: number;
  /** Rewrites url (redis://, amqp://, postgres://) to go through the proxy. */
  urlFor(url: string): string;
  /** Closes the listener and destroys every proxied connection. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function createTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await listen(server, 0);
  let listening = true;

  async function stop(): Promise<void> {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    stop,
    async start() {
      if (listening) return;
      await listen(server, port);
      listening = true;
    },
    close: stop,
  };
}
