/**
 * The sync path's floor on this machine (#26): what the hops the design card puts on a
 * synchronous trace cost when nothing else is done on them. An Express 5 JSON POST route
 * (the bare reference's) sends the body over RabbitMQ to a worker and waits for the answer
 * (a queue, a consumer with prefetch, the direct reply-to); the worker reads the contacts
 * at the body's address key from PostgreSQL (an index probe), stores the answer (an
 * INSERT, committed) and replies; the route answers with the reply. Jobs that arrive
 * together share one read and one INSERT (two groups in flight at most), as the real
 * worker batches its statements. No token check, rate limit, validation, metrics, spans,
 * idempotency, usage counting or durable queues, and unless asked no matching and no
 * events: every one of those is work the real path adds on top.
 *
 *   node test/bench/floor.bench.ts [--database bench_owners_1m] [--seconds 15]
 *     [--connections 50] [--topology two|one] [--port 18070]
 *     [--db read-write|read|none] [--events] [--engine]
 *
 * --database: a kept bench world (`./run bench sync|batch … --database NAME`); the bodies
 * are its contacts' addresses with their address keys. --db: the worker's statements: the
 * read and the committed INSERT (default), the read alone, or none (the hops alone).
 * --events: the worker also publishes its answer as an event (one message per trace; the
 * real path sends two, plant.added and skiptrace.completed, in packs), consumed and
 * decoded by a third process, the dispatcher's hop. --engine: the worker traces with the
 * product's engine (createContactTraceEngine: the owner model's reads and matching)
 * instead of the plain read, on the sync bench's bodies (noisy queries of the world's
 * people). --topology two (default): route, worker (and dispatcher) in processes of
 * their own, as the card deploys them; one: all in one process.
 * Loaded by wrk like the sync bench, with the bare Express 5 server (express-reference.ts)
 * just before and just after; prints capacity, the ratio and CPU ms per request per
 * process group. Its own vhost and table, dropped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import amqp, { type ConsumeMessage } from 'amqplib';
import express from 'express';
import pg from 'pg';
import { createContactTraceEngine, createPostgresDatabase } from '@skiptrace/batches/bench-system';
import type { Property } from '@skiptrace/contracts';
import { demoQueryFor, type ContactRow } from '@skiptrace/demo';
import { createTestVhost, stopChild, testUrls, waitUntil } from '@skiptrace/testing';
import { cpuPerRequest, cpuSnapshot, databaseBackends, type PidGroups, pidsOf } from '@skiptrace/testing/cpu-time';
import { loadBenchWorld } from './bench-world.ts';
import { bareExpressCapacity } from './express-reference.ts';
import { runWrk } from './wrk.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'bench_owners_1m' },
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '50' },
    topology: { type: 'string', default: 'two' },
    port: { type: 'string', default: '18070' },
    db: { type: 'string', default: 'read-write' },
    events: { type: 'boolean', default: false },
    engine: { type: 'boolean', default: false },
    role: { type: 'string' },
  },
});
const QUEUE = 'floor.jobs';
const TABLE = 'floor_answers';
const EVENTS = 'floor.events';
const PATH = '/api/v1/property/skiptrace';

/** The webhook dispatcher's hop: every event consumed and decoded (no subscriber to send it to). */
async function dispatcher(amqpUrl: string) {
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertExchange(EVENTS, 'topic', { durable: false });
  const { queue } = await channel.assertQueue('floor.events.dispatch', { durable: false });
  await channel.bindQueue(queue, EVENTS, '#');
  await channel.prefetch(64);
  await channel.consume(queue, (msg) => {
    if (!msg) return;
    JSON.parse(msg.content.toString());
    channel.ack(msg);
  });
}

async function gateway(amqpUrl: string, port: number) {
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  const waiting = new Map<string, (body: Buffer) => void>();
  await channel.consume(
    'amq.rabbitmq.reply-to',
    (msg) => {
      if (!msg) return;
      const done = waiting.get(msg.properties.correlationId as string);
      waiting.delete(msg.properties.correlationId as string);
      done?.(msg.content);
    },
    { noAck: true },
  );
  let n = 0;
  const app = express();
  app.post(PATH, express.json(), (req, res) => {
    const id = String(++n);
    waiting.set(id, (body) => res.type('application/json').send(body));
    channel.sendToQueue(QUEUE, Buffer.from(JSON.stringify(req.body)), {
      correlationId: id,
      replyTo: 'amq.rabbitmq.reply-to',
    });
  });
  // Names this run, so that the bench never loads a route left over from another one.
  app.get('/readyz', (_req, res) => res.send(process.env['RUN']));
  app.listen(port, '127.0.0.1');
}

async function worker(amqpUrl: string, databaseUrl: string, mode: string, events: boolean, withEngine: boolean) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  const engine = withEngine ? createContactTraceEngine(createPostgresDatabase({ url: databaseUrl })) : undefined;
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertQueue(QUEUE, { durable: false });
  await channel.assertExchange(EVENTS, 'topic', { durable: false });
  await channel.prefetch(64);
  // The jobs that arrive while a statement is out are served by the next one, together:
  // one read and one INSERT per group of jobs (the real worker batches the same way).
  let queued: ConsumeMessage[] = [];
  let inFlight = 0;
  const serve = async (msgs: ConsumeMessage[]) => {
    const bodies = msgs.map((m) => JSON.parse(m.content.toString()) as Property & { k: string });
    let results: unknown[];
    if (engine) {
      results = (await engine.traceMany(bodies)).map((outcome) => outcome.results);
    } else {
      const byKey = new Map<string, unknown[]>();
      if (mode !== 'none') {
        const { rows } = await pool.query<{ address_key: string }>(
          `SELECT c.address_key, c.id, c.first_name, c.last_name, c.phones
             FROM unnest($1::text[]) AS k(key)
             CROSS JOIN LATERAL (SELECT * FROM contacts WHERE address_key = k.key LIMIT 10) c`,
          [bodies.map((b) => b.k)],
        );
        for (const row of rows) byKey.set(row.address_key, [...(byKey.get(row.address_key) ?? []), row]);
      }
      results = bodies.map((b) => byKey.get(b.k) ?? []);
    }
    const answers = msgs.map((m, i) =>
      JSON.stringify({ id: m.properties.correlationId, status: 'completed', property: bodies[i], results: results[i] }),
    );
    if (mode === 'read-write') await pool.query(`INSERT INTO ${TABLE} (answer) SELECT unnest($1::text[])`, [answers]);
    msgs.forEach((m, i) => {
      const answer = Buffer.from(answers[i]!);
      channel.sendToQueue(m.properties.replyTo as string, answer, {
        correlationId: m.properties.correlationId as string,
      });
      if (events) channel.publish(EVENTS, 'trace.completed', answer);
      channel.ack(m);
    });
  };
  const next = () => {
    if (inFlight >= 2 || queued.length === 0) return;
    const group = queued;
    queued = [];
    inFlight++;
    serve(group).then(
      () => {
        inFlight--;
        next();
      },
      (err: unknown) => {
        // A floor that lost jobs would measure nothing: stop (the bench fails the run).
        console.error('floor worker:', err);
        process.exit(1);
      },
    );
  };
  await channel.consume(QUEUE, (msg) => {
    if (!msg) return;
    queued.push(msg);
    queueMicrotask(next);
  });
}

if (values.role !== undefined) {
  // Exits on the bench's SIGTERM, so that --cpu-prof (NODE_OPTIONS) writes its profile.
  process.once('SIGTERM', () => process.exit(0));
  const { AMQP, DB, PORT } = process.env;
  if (values.role === 'gateway' || values.role === 'both') await gateway(AMQP!, Number(PORT));
  if (values.role !== 'gateway' && values.role !== 'dispatcher')
    await worker(AMQP!, DB!, values.db, values.events, values.engine);
  if (values.events && (values.role === 'dispatcher' || values.role === 'both')) await dispatcher(AMQP!);
} else {
  const urls = testUrls();
  const databaseUrl = new URL(urls.databaseUrl);
  databaseUrl.pathname = `/${values.database}`;
  const db = new pg.Client({ connectionString: databaseUrl.toString() });
  await db.connect();
  await db.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (id bigserial PRIMARY KEY, answer text NOT NULL)`);
  const { rows } = await db.query<Record<string, string>>(
    `SELECT street_address, city, state, zip5 AS zip_code, first_name, last_name, address_key AS k
       FROM contacts TABLESAMPLE SYSTEM (1) LIMIT 5000`,
  );
  if (rows.length === 0)
    throw new Error(`no contacts in ${values.database}: build a world with the sync or batch bench`);
  let bodies = rows.map((r) => JSON.stringify(r));
  if (values.engine) {
    // The sync bench's own bodies: noisy variants of the world's rows, spread over it.
    const world = await db.query<{ contacts: string; owners: boolean }>('SELECT contacts, owners FROM bench_world');
    const { contacts, owners } = world.rows[0]!;
    const stride = Math.max(1, Math.floor(Number(contacts) / 5000));
    bodies = [];
    const store = createPostgresDatabase({ url: databaseUrl.toString() });
    await loadBenchWorld(store, Number(contacts), owners, (row: ContactRow, i: number) => {
      if (i % stride === 0) bodies.push(JSON.stringify(demoQueryFor(row, i + 1)));
    });
    await store.close();
  }
  const vhost = await createTestVhost('bench-floor', urls.amqpUrl);
  const port = Number(values.port);
  const connections = Number(values.connections);
  const seconds = Number(values.seconds);
  const run = String(process.pid);
  const env = { ...process.env, AMQP: vhost.url, DB: databaseUrl.toString(), PORT: String(port), RUN: run };
  const start = (role: string): ChildProcess =>
    spawn(
      process.execPath,
      [
        import.meta.filename,
        ...['--role', role, '--db', values.db],
        ...(values.events ? ['--events'] : []),
        ...(values.engine ? ['--engine'] : []),
      ],
      {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  const children =
    values.topology === 'one'
      ? [start('both')]
      : [...(values.events ? [start('dispatcher')] : []), start('worker'), start('gateway')];
  // A process of the floor that exits before the bench stops it fails the run.
  const exited: string[] = [];
  for (const child of children) child.once('exit', (code) => exited.push(`pid ${child.pid} exited with ${code}`));
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntil(async () => (await (await fetch(`${url}/readyz`)).text()) === run, {
      timeoutMs: 30_000,
      message: 'floor ready',
    });
    const load = { url, path: PATH, token: 'none', bodies, connections };
    await runWrk({ ...load, seconds: 5 }); // warm-up
    const groups: PidGroups = {
      node: () => children.map((c) => c.pid!),
      loadgen: () => [process.pid],
      rabbitmq: () => pidsOf('beam.smp'),
      postgres: () => databaseBackends(db, values.database),
    };
    const reference = () => bareExpressCapacity({ port: port + 10, bodies, connections, seconds });
    const before = await reference();
    const cpuBefore = await cpuSnapshot(groups);
    const capacity = await runWrk({ ...load, seconds });
    const cpuAfter = await cpuSnapshot(groups);
    const after = await reference();
    if (exited.length > 0) throw new Error(`the floor's processes did not last the run: ${exited.join('; ')}`);
    // What the worker answered: a floor that found nobody would be no floor.
    const answered =
      values.db === 'read-write'
        ? (
            await db.query<{ n: string; found: string }>(
              `SELECT count(*) AS n, count(*) FILTER (WHERE answer NOT LIKE '%"results":[]}') AS found FROM ${TABLE}`,
            )
          ).rows[0]
        : undefined;
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          topology: values.topology,
          db: values.db,
          events: values.events,
          engine: values.engine,
          database: values.database,
          capacity,
          bareExpress: { before: before.reqPerSec, after: after.reqPerSec },
          ratioToBareExpress:
            Math.round((capacity.reqPerSec / ((before.reqPerSec + after.reqPerSec) / 2)) * 1000) / 1000,
          cpuMsPerRequest: cpuPerRequest(cpuBefore, cpuAfter, capacity.total),
          ...(answered && { answersWithPeople: Math.round((Number(answered.found) / Number(answered.n)) * 1000) / 10 }),
        },
        null,
        2,
      ),
    );
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
    await db.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await db.end();
    await vhost.drop();
  }
}
