/**
 * The sync path's same-minutes reference (#26): a bare Express 5 server in a process of its
 * own — one JSON POST route that parses the body and answers it back, nothing else — loaded
 * by the same generator, bodies and connections as the system. The system's capacity is
 * reported as a ratio to it, which survives the VM's speed drifting (2× within an hour).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { stopChild, waitUntil } from '@skiptrace/testing';
import { runWrk, type LoadResult } from './wrk.ts';

const SERVER = `
import express from 'express';
const app = express();
app.post('/api/v1/property/skiptrace', express.json(), (req, res) => {
  res.json({ id: '00000000-0000-4000-8000-000000000000', status: 'completed', property: req.body, results: [] });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Starts the bare server (Express resolved from the gateway, which depends on it), loads it with wrk, stops it. */
export async function bareExpressCapacity(options: {
  port: number;
  bodies: string[];
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    cwd: join(import.meta.dirname, '../../packages/gateway'),
    env: { ...process.env, PORT: String(options.port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitUntil(async () => (await fetch(`${url}/api/v1/property/skiptrace`, { method: 'POST', body: '{}' })).ok, {
      timeoutMs: 20_000,
      message: 'bare Express ready',
    });
    const load = { url, path: '/api/v1/property/skiptrace', token: 'none', bodies: options.bodies };
    await runWrk({ ...load, connections: options.connections, seconds: 2 }); // warm-up
    return await runWrk({ ...load, connections: options.connections, seconds: options.seconds });
  } finally {
    await stopChild(child);
  }
}
