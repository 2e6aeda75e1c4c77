/**
 * Cost of the typed catalogue bus (catalogueBus: packing from the catalogue, queue binding,
 * validation at consume) against the transport with the handler parsing its own payload, as
 * the consumers did before: CPU per job.skiptrace published and consumed on the in-process
 * bus (both observed), in alternating rounds.
 *   node packages/messaging/bench/catalogue.bench.ts   (N=30000 messages per round)
 */
import { MESSAGES, parseMessage } from '@skiptrace/contracts';
import { catalogueBus, createMemoryBus, observeBus } from '../src/index.ts';

const N = Number(process.env['N'] ?? 30000);
const property = {
  street_address: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zip_code: '78701',
  first_name: 'Ann',
  last_name: 'Lee',
};
const job = (i: number) => ({ propertyId: i + 1, accountId: 'acct', property, requestedAt: new Date().toISOString() });

async function raw(): Promise<number> {
  const bus = observeBus(createMemoryBus());
  let done = 0;
  await bus.consume({ queue: 'skiptrace.jobs', topics: ['job.skiptrace'], prefetch: 200 }, async (d) => {
    const j = parseMessage('job.skiptrace', d.payload);
    done += j.propertyId > 0 ? 1 : 0;
  });
  const t = process.cpuUsage();
  await Promise.all(Array.from({ length: N }, (_, i) => bus.publish('job.skiptrace', job(i), { pack: true })));
  while (done < N) await new Promise((r) => setImmediate(r));
  const u = process.cpuUsage(t);
  await bus.close();
  return (u.user + u.system) / N;
}

async function typed(): Promise<number> {
  const bus = catalogueBus(MESSAGES, observeBus(createMemoryBus()));
  let done = 0;
  await bus.consume('skiptrace.jobs', { prefetch: 200 }, async (d) => {
    done += d.payload.propertyId > 0 ? 1 : 0;
  });
  const t = process.cpuUsage();
  await Promise.all(Array.from({ length: N }, (_, i) => bus.publish('job.skiptrace', job(i))));
  while (done < N) await new Promise((r) => setImmediate(r));
  const u = process.cpuUsage(t);
  await bus.close();
  return (u.user + u.system) / N;
}

await raw();
await typed(); // warm-up
for (let round = 1; round <= 4; round++) {
  const a = await raw();
  const b = await typed();
  console.log(
    `round ${round}: raw ${a.toFixed(1)} µs/msg, catalogue ${b.toFixed(1)} µs/msg, ratio ${(b / a).toFixed(3)}`,
  );
}
