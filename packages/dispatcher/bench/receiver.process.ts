// The local webhook receiver of dispatch.bench.ts in a process of its own (the default),
// as a customer's server would be: 200 on /ok, silence on /hang. It reports each arrival
// (account, event id, epoch ms) to the parent over IPC, 20 ms of arrivals per message.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const send = (message: unknown) => process.send?.(message);
let pending: [string, number, number][] = [];
const server = createServer((req, res) => {
  if (req.url === '/hang') return void req.resume();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; city: string };
    pending.push([body.city, body.id, performance.timeOrigin + performance.now()]);
    res.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => send({ port: (server.address() as AddressInfo).port }));
setInterval(() => {
  if (pending.length === 0) return;
  send({ arrivals: pending });
  pending = [];
}, 20);
process.on('disconnect', () => process.exit(0));
