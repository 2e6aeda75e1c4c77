// A runnable webhook receiver for the skip-trace platform:
//   WEBHOOK_SECRET=whsec_... PORT=3000 node examples/webhook-receiver/server.ts
// (or WEBHOOK_SECRET_FILE=/run/secrets/webhook_secret, as Docker Compose passes it).
// Serves POST / and POST /plant/webhook: verifies the Standard Webhooks signature over the
// raw body with the receiver kit, prints the event and answers 200 (as the interface
// describes). Bad signatures get 401, so the sender retries and the failure is visible in
// the delivery log. Deduplicate on webhook-id: retries and replays reuse it.
// GET /healthz answers 200 (container health check).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '../../packages/webhook-verify/src/index.ts';

function readSecret(): string | undefined {
  if (process.env.WEBHOOK_SECRET) return process.env.WEBHOOK_SECRET;
  const file = process.env.WEBHOOK_SECRET_FILE;
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (err) {
    console.error(`WEBHOOK_SECRET_FILE: cannot read ${file} (${(err as Error).message})`);
    process.exit(1);
  }
}

const secret = readSecret();
if (!secret) {
  console.error(
    'WEBHOOK_SECRET (or WEBHOOK_SECRET_FILE) is required: the whsec_... secret of the endpoint that posts here',
  );
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
const MAX_BODY = 1024 * 1024;
const PATHS = new Set(['/', '/plant/webhook']);
// Recently seen webhook-ids: a retry of something already handled is acknowledged, not reprocessed.
const seen = new Set<string>();

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (req.method === 'GET' && path === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (!PATHS.has(path)) {
    res.writeHead(404).end();
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    try {
      const body = verifyWebhook(secret, raw, req.headers);
      const id = req.headers['webhook-id'] as string;
      const type = req.headers['webhook-event-type'];
      if (!seen.has(id)) {
        seen.add(id);
        if (seen.size > 10_000) seen.delete(seen.values().next().value!);
        console.log(JSON.stringify({ id, type, body }));
      } else {
        // Acknowledged again, not reprocessed; noted so a redelivery is visible in the log.
        console.log(JSON.stringify({ id, type, duplicate: true }));
      }
      res.writeHead(200).end();
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      console.error(`rejected: ${err.message}`);
      res.writeHead(401).end();
    }
  });
});

server.listen(port, () => console.log(`receiver listening on http://localhost:${port}/ (and /plant/webhook)`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
