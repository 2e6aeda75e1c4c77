import { createReadStream } from 'node:fs';
import { createPostgresDatabase } from '@skiptrace/storage';
import type { Database } from '@skiptrace/storage';
import { createTestDatabaseUrl } from '@skiptrace/testing';
import { importContacts } from './src/index.ts';
const database = await createTestDatabaseUrl('probe');
const real = createPostgresDatabase({ url: database.url });
await real.migrate();
const t = { copy: 0, insert: 0, other: 0 };
const db = {
  ...real,
  kind: real.kind,
  async copyRows(a: string, b: string[], c: AsyncIterable<unknown[]>) {
    const s = performance.now();
    try {
      return await real.copyRows(a, b, c);
    } finally {
      t.copy += performance.now() - s;
    }
  },
  async query(sql: string, p?: unknown[]) {
    const s = performance.now();
    try {
      return await real.query(sql, p);
    } finally {
      t[sql.startsWith('INSERT') ? 'insert' : 'other'] += performance.now() - s;
    }
  },
} as Database;
const batchSize = Number(process.argv[3] ?? 10000);
const cpu0 = process.cpuUsage();
const s = performance.now();
const counts = await importContacts(db, createReadStream(process.argv[2]!, { highWaterMark: 256 * 1024 }), {
  format: 'csv',
  batchSize,
});
const wall = performance.now() - s;
const cpu = process.cpuUsage(cpu0);
console.log(
  `batch ${batchSize}: ${counts.read} rows ${(wall / 1000).toFixed(1)} s = ${Math.round((counts.read / wall) * 1000)} rows/s; node cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; copy ${t.copy.toFixed(0)} ms insert ${t.insert.toFixed(0)} ms other ${t.other.toFixed(0)} ms`,
);
await real.close();
await database.drop();
