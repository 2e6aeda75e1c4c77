import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port nobody listens on now (for a system whose issuer URL must name its port before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
