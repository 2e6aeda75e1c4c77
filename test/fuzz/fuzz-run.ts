/**
 * Runs the fuzzer against a running system and returns its figures: requests by status
 * class and route, and the violations — any 5xx, any request without an answer within
 * the deadline (a hang), and any error answer without its documented body (the API's
 * Error object `{error: int32, message}`; the OAuth server's `{error, error_description}`
 * or its HTML error page).
 */
import fc from 'fast-check';
import { fuzzRequests, routesOf, type FuzzContext, type FuzzRequest, type OpenApiDocument } from './requests.ts';
import { send, type FuzzAnswer } from './send.ts';

export interface FuzzOptions {
  baseUrl: string;
  context: FuzzContext;
  document: OpenApiDocument;
  requests: number;
  /** Requests in flight at once; default 8. */
  concurrency?: number;
  /** fast-check seed; the same seed replays the same requests. */
  seed: number;
  /** A request without an answer after this long is a hang (ms); default 30,000. */
  deadlineMs?: number;
  /** Stop drawing requests this long after the first drawn one (ms); default none. */
  timeLimitMs?: number;
  onProgress?: (done: number) => void;
  /** Requests sent first, as they are (heavySlice), before the drawn ones; they count toward `requests`. */
  fixed?: FuzzRequest[];
}

export type ViolationKind = '5xx' | 'hang' | 'error body' | 'no answer';

export interface Violation {
  kind: ViolationKind;
  request: string;
  status: number;
  answer: string;
}

export interface FuzzFigures {
  seed: number;
  requests: number;
  seconds: number;
  perSecond: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  /** Heavy bodies (heavy.ts) by kind, and trickled deliveries. */
  byHeavy: Record<string, number>;
  trickled: number;
  /** Routes of the OpenAPI document the run never sent a request to. */
  routesMissed: string[];
  violations: Record<ViolationKind, number>;
  /** The first examples of each kind (at most 10 each). */
  examples: Violation[];
  slowestMs: number;
}

const OAUTH_PATH = /^\/(oauth|\.well-known|interaction)\//;
const preview = (b: Buffer | undefined, n = 160) =>
  b === undefined ? '' : JSON.stringify(b.subarray(0, n).toString('latin1')) + (b.length > n ? `…(${b.length} B)` : '');

export function describeRequest(req: FuzzRequest): string {
  if (req.raw !== undefined) return `raw ${preview(Buffer.from(req.raw, 'latin1'))}`;
  const h = req.headers;
  const meta = [
    h['content-type'] && `type=${h['content-type']}`,
    h['content-encoding'] && `enc=${h['content-encoding']}`,
    req.heavy && `heavy=${req.heavy}`,
    req.trickle && `trickled ${req.trickle.chunkBytes} B/${req.trickle.everyMs} ms`,
  ]
    .filter(Boolean)
    .join(' ');
  return `${req.method} ${req.path.slice(0, 200)} ${meta} body=${preview(req.body)}`.trim();
}

/** What is wrong with an answer, if anything. */
export function judge(req: FuzzRequest, answer: FuzzAnswer): ViolationKind | undefined {
  if (answer.hung) return 'hang';
  if (answer.status === 0) return 'no answer';
  if (answer.status >= 500) return '5xx';
  if (answer.status < 400 || req.method === 'HEAD') return undefined;
  const type = answer.headers['content-type'] ?? '';
  const oauth = req.raw === undefined && OAUTH_PATH.test(req.path);
  if (oauth && type.startsWith('text/html') && answer.body.length > 0) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return 'error body';
  }
  const { error, message, error_description } = (body ?? {}) as Record<string, unknown>;
  if (oauth && typeof error === 'string' && (error_description === undefined || typeof error_description === 'string'))
    return undefined;
  return Number.isInteger(error) && typeof message === 'string' ? undefined : 'error body';
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const { baseUrl, context, document, requests, seed } = options;
  const concurrency = options.concurrency ?? 8;
  const deadlineMs = options.deadlineMs ?? 30_000;
  const base = new URL(baseUrl);
  const arbitrary = fuzzRequests(context, document);
  const byStatus: Record<string, number> = {};
  const byRoute: Record<string, number> = {};
  const byHeavy: Record<string, number> = {};
  let trickled = 0;
  const violations: Record<ViolationKind, number> = { '5xx': 0, hang: 0, 'error body': 0, 'no answer': 0 };
  const examples: Violation[] = [];
  const started = performance.now();
  // The time limit runs from the first drawn request: the fixed ones are always sent whole.
  let stopAt = Infinity;
  let sent = 0;
  let slowestMs = 0;
  let batch = 0;
  let queue: FuzzRequest[] = [];
  const fixed = [...(options.fixed ?? [])].reverse();

  const next = (): FuzzRequest | undefined => {
    if (fixed.length > 0) {
      sent++;
      return fixed.pop();
    }
    if (stopAt === Infinity && options.timeLimitMs !== undefined) stopAt = performance.now() + options.timeLimitMs;
    if (sent >= requests || performance.now() > stopAt) return undefined;
    if (queue.length === 0) queue = fc.sample(arbitrary, { numRuns: 256, seed: seed + batch++ });
    sent++;
    return queue.pop();
  };

  async function worker(): Promise<void> {
    for (let req = next(); req; req = next()) {
      const answer = await send(base, req, deadlineMs);
      slowestMs = Math.max(slowestMs, answer.ms);
      const status = answer.hung ? 'hung' : String(answer.status);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      byRoute[req.route] = (byRoute[req.route] ?? 0) + 1;
      if (req.heavy) byHeavy[req.heavy] = (byHeavy[req.heavy] ?? 0) + 1;
      if (req.trickle) trickled++;
      const kind = judge(req, answer);
      if (kind) {
        violations[kind]++;
        if (examples.filter((e) => e.kind === kind).length < 10)
          examples.push({ kind, request: describeRequest(req), status: answer.status, answer: preview(answer.body) });
      }
      const done = Object.values(byStatus).reduce((a, b) => a + b, 0);
      if (done % 1000 === 0) options.onProgress?.(done);
    }
  }

  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
  return {
    seed,
    requests: total,
    seconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round(total / seconds),
    byStatus,
    byRoute,
    byHeavy,
    trickled,
    routesMissed: routesOf(document).filter((r) => !byRoute[r]),
    violations,
    examples,
    slowestMs: Math.round(slowestMs),
  };
}
