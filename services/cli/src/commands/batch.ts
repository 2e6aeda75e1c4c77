/**
 * `pnpm skiptrace batch submit FILE [--wait]` and `pnpm skiptrace batch download ID --out FILE`:
 * talks to the HTTP API (bearer token from --token or SKIPTRACE_TOKEN). The upload is
 * streamed from disk; progress goes to stderr, machine-readable results to stdout.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseFlags, requireFlag, UsageError, type Command } from '../command.ts';

const BASE = '/api/v1/property/skiptrace/batches';
/** Seconds between status polls with --wait. */
const POLL_SECONDS = 1;

interface Options {
  api: string;
  token: string;
}

function options(flags: Record<string, string | true>): Options {
  const api = typeof flags.api === 'string' ? flags.api : (process.env.SKIPTRACE_API ?? 'http://localhost:8080');
  const token = typeof flags.token === 'string' ? flags.token : process.env.SKIPTRACE_TOKEN;
  if (!token) throw new UsageError('a bearer token is required: --token T or SKIPTRACE_TOKEN');
  return { api: api.replace(/\/$/, ''), token };
}

function contentType(file: string): string {
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'application/x-ndjson';
  if (/\.json$/i.test(file)) return 'application/json';
  return 'text/csv';
}

async function failure(res: Response): Promise<Error> {
  const text = await res.text();
  return new Error(`HTTP ${res.status}: ${text.slice(0, 500)}`);
}

function bar(s: {
  status: string;
  total: number;
  processed: number;
  rejected: number;
  rate: number;
  eta_seconds: number | null;
}) {
  const done = s.processed + s.rejected;
  const share = s.total > 0 ? done / s.total : 1;
  const width = 30;
  const filled = Math.round(share * width);
  const eta = s.eta_seconds === null ? '' : ` eta ${s.eta_seconds}s`;
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(1)}% ${done}/${s.total} ${s.status} ${s.rate} rows/s${eta}   `;
}

async function submit(file: string, flags: Record<string, string | true>): Promise<number> {
  const { api, token } = options(flags);
  const size = (await stat(file)).size;
  const query = typeof flags.map === 'string' ? `?map=${encodeURIComponent(flags.map)}` : '';
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': contentType(file) };
  if (typeof flags['idempotency-key'] === 'string') headers['Idempotency-Key'] = flags['idempotency-key'];
  process.stderr.write(`uploading ${file} (${(size / 1048576).toFixed(1)} MiB)…\n`);
  const res = await fetch(`${api}${BASE}${query}`, {
    method: 'POST',
    headers,
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 202) throw await failure(res);
  const accepted = (await res.json()) as { id: string; accepted: number; rejected: number };
  process.stderr.write(`batch ${accepted.id}: ${accepted.accepted} rows accepted, ${accepted.rejected} rejected\n`);
  if (flags.wait !== true) {
    process.stdout.write(`${JSON.stringify(accepted)}\n`);
    return 0;
  }
  for (;;) {
    const poll = await fetch(`${api}${BASE}/${accepted.id}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!poll.ok) throw await failure(poll);
    const s = (await poll.json()) as Parameters<typeof bar>[0];
    process.stderr.write(bar(s));
    if (!['queued', 'running'].includes(s.status)) {
      process.stderr.write('\n');
      process.stdout.write(`${JSON.stringify(s)}\n`);
      return s.status === 'completed' ? 0 : 1;
    }
    await sleep(POLL_SECONDS * 1000);
  }
}

async function download(id: string, flags: Record<string, string | true>): Promise<number> {
  const { api, token } = options(flags);
  const out = requireFlag(flags, 'out');
  const accept = /\.(ndjson|jsonl)$/i.test(out) ? 'application/x-ndjson' : 'text/csv';
  const res = await fetch(`${api}${BASE}/${encodeURIComponent(id)}/results`, {
    headers: { Authorization: `Bearer ${token}`, Accept: accept },
  });
  if (!res.ok || !res.body) throw await failure(res);
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(out));
  process.stderr.write(`wrote ${out} (batch status ${res.headers.get('x-batch-status') ?? 'unknown'})\n`);
  return 0;
}

export const batchCommand: Command = {
  name: 'batch',
  summary: 'submit a CSV/NDJSON/JSON file as a batch, or download its results',
  usage:
    'submit FILE [--wait] [--map field:column,…] [--idempotency-key K] [--api URL] [--token T]\n' +
    '       batch download ID --out FILE [--api URL] [--token T]   (FILE.ndjson → NDJSON, else CSV)',
  async run(args) {
    const [sub, target, ...rest] = args;
    const { flags } = parseFlags(rest);
    if (sub === 'submit' && target) return submit(target, flags);
    if (sub === 'download' && target) return download(target, flags);
    throw new UsageError('expected: batch submit FILE … or batch download ID --out FILE');
  },
};
