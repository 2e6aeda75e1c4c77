/**
 * The fuzz command: `./run fuzz -- --requests 100000 [--concurrency 8] [--seed N]
 * [--deadline-ms 30000] [--json]`. Starts the one-process system in a temporary data
 * directory, sends every heavy body once (heavySlice), then drawn requests up to
 * `--requests` in all, prints the figures and exits 1 on any violation (5xx, hang, error
 * answer without its documented body, a route never reached, a packet off loopback).
 */
import { parseArgs } from 'node:util';
import { installLoopbackGuard, loopbackViolations } from '@skiptrace/testing/loopback-guard';
import { runFuzz } from './fuzz-run.ts';
import { heavySlice } from './requests.ts';
import { startFuzzSystem } from './fuzz-system.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    requests: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '8' },
    seed: { type: 'string' },
    'deadline-ms': { type: 'string', default: '30000' },
    json: { type: 'boolean', default: false },
  },
});

installLoopbackGuard();
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const system = await startFuzzSystem();
let failed: boolean;
try {
  const started = new Date();
  const figures = await runFuzz({
    baseUrl: system.baseUrl,
    context: system.context,
    document: system.document,
    requests: Number(values.requests),
    concurrency: Number(values.concurrency),
    deadlineMs: Number(values['deadline-ms']),
    seed,
    fixed: heavySlice(system.context),
    onProgress: (done) => process.stderr.write(`\r${done} requests`),
  });
  process.stderr.write('\n');
  if (values.json) console.log(JSON.stringify({ date: started.toISOString(), ...figures }, null, 2));
  else {
    console.log(`fuzz ${started.toISOString()} seed ${figures.seed} (replay: --seed ${figures.seed})`);
    console.log(
      `${figures.requests} requests in ${figures.seconds} s (${figures.perSecond}/s), slowest ${figures.slowestMs} ms`,
    );
    console.log(
      `5xx: ${figures.violations['5xx']}  hangs: ${figures.violations.hang}  error answers without their body: ${figures.violations['error body']}  closed without an answer: ${figures.violations['no answer']}`,
    );
    console.log('by status:', JSON.stringify(figures.byStatus));
    console.log('by route:');
    for (const [route, n] of Object.entries(figures.byRoute).sort())
      console.log(`  ${String(n).padStart(7)}  ${route}`);
    const heavy = Object.values(figures.byHeavy).reduce((a, b) => a + b, 0);
    console.log(
      `heavy bodies: ${heavy} (bombs ${Object.entries(figures.byHeavy)
        .filter(([k]) => k.startsWith('bomb'))
        .reduce((a, [, n]) => a + n, 0)}), trickled: ${figures.trickled}`,
    );
    for (const [kind, n] of Object.entries(figures.byHeavy).sort()) console.log(`  ${String(n).padStart(7)}  ${kind}`);
    if (figures.routesMissed.length) console.log('routes never reached:', figures.routesMissed.join(', '));
    for (const e of figures.examples) console.log(`[${e.kind}] ${e.status} ← ${e.request}\n    answer ${e.answer}`);
  }
  const offMachine = loopbackViolations();
  if (offMachine.length) console.log(`left loopback: ${offMachine.length} (${offMachine.slice(0, 3).join('; ')})`);
  failed =
    Object.values(figures.violations).some((n) => n > 0) || figures.routesMissed.length > 0 || offMachine.length > 0;
} finally {
  await system.stop();
}
process.exitCode = failed ? 1 : 0;
