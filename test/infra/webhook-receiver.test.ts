// The Compose webhook-receiver as Compose runs it (its command, environment and health
// check), without Docker: started as a process with the secret file in place of the
// mounted one, it answers signed deliveries at the documented URL path `/`.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { waitUntil } from '@skiptrace/testing';
import { loadYaml, root } from './infra-files.ts';

interface ReceiverService {
  command: string[];
  environment: Record<string, string>;
  secrets: string[];
  healthcheck: { test: string[] };
}
const receiver = loadYaml<{ services: Record<string, ReceiverService> }>('docker-compose.yml').services[
  'webhook-receiver'
]!;
const PORT = 18861;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const secretFile = join(mkdtempSync(join(tmpdir(), 'receiver-')), 'webhook_secret');
let child: ChildProcess | undefined;
let output = '';

function start(env: Record<string, string>): ChildProcess {
  const [cmd, ...args] = receiver.command;
  expect(cmd).toBe('node');
  return spawn(process.execPath, args, { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
}

beforeAll(async () => {
  writeFileSync(secretFile, `${secret}\n`);
  const env = { ...receiver.environment, PORT: String(PORT), WEBHOOK_SECRET_FILE: secretFile };
  child = start(env);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(async () => (await fetch(`http://127.0.0.1:${PORT}/healthz`).catch(() => undefined))?.ok === true, {
    timeoutMs: 20_000,
    message: 'receiver listening',
  });
});
afterAll(() => {
  child?.kill('SIGTERM');
});

const deliver = (body: string, signWith: string, path = '/') => {
  const id = `msg_${randomBytes(6).toString('hex')}`;
  const at = new Date();
  return fetch(`http://127.0.0.1:${PORT}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(signWith).sign(id, at, body),
      'webhook-event-type': 'skiptrace.completed',
    },
    body,
  });
};

describe('compose webhook-receiver', () => {
  it('gets its secret as a mounted file', () => {
    expect(receiver.environment.WEBHOOK_SECRET_FILE).toBe('/run/secrets/webhook_secret');
    expect(receiver.secrets).toContain('webhook_secret');
    expect(receiver.environment.PORT).toBe('9000');
  });

  it('accepts signed deliveries at / and /plant/webhook and rejects bad signatures', async () => {
    expect((await deliver('{"id":1,"status":"completed"}', secret)).status).toBe(200);
    expect((await deliver('{"id":2,"status":"completed"}', secret, '/plant/webhook')).status).toBe(200);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect((await deliver('{"id":3}', other)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${PORT}/elsewhere`, { method: 'POST' })).status).toBe(404);
    await waitUntil(async () => output.includes('"id":2'), { timeoutMs: 5000, message: 'events printed' });
    expect(output).toContain('"type":"skiptrace.completed"');
  });

  it('passes its Compose health check', () => {
    const [kind, ...command] = receiver.healthcheck.test;
    expect(kind).toBe('CMD');
    const args = command.slice(1).map((a) => a.replaceAll('9000', String(PORT)));
    const result = spawnSync(process.execPath, args, { timeout: 10_000 });
    expect(result.status).toBe(0);
  });

  it('exits with a message when it has no secret (instead of answering unverified)', () => {
    const result = spawnSync(process.execPath, receiver.command.slice(1), {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', PORT: String(PORT + 1) },
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.toString()).toContain('WEBHOOK_SECRET');
  });
});
