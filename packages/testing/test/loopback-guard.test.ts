import { spawnSync } from 'node:child_process';
import dns from 'node:dns';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { expectViolations, isLoopbackHost, loopbackViolations } from '../src/loopback-guard.ts';

describe('loopback guard', () => {
  it('tells loopback from everything else', () => {
    for (const host of [
      '127.0.0.1',
      '127.9.8.7',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'localhost',
      'api.localhost',
    ])
      expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of [
      '93.184.215.14',
      '10.0.0.1',
      '192.0.2.1',
      '::2',
      'hooks.invalid',
      'example.com',
      'localhost.example',
    ])
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
  });

  it('is installed in every Jest process and refuses a connection elsewhere before dialling', async () => {
    const violations = await expectViolations(() => net.connect(9, '192.0.2.1'));
    expect(violations).toEqual(['a connection to 192.0.2.1']);
    await expect(expectViolations(() => dns.promises.lookup('hooks.invalid'))).resolves.toEqual([
      'a DNS lookup of hooks.invalid',
    ]);
    expect(loopbackViolations()).toEqual([]);
  });

  it('lets loopback connections through', async () => {
    const server = net.createServer((socket) => socket.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('data', (data) => resolve(data.toString()));
      socket.on('error', reject);
    });
    server.close();
    expect(answer).toBe('ok');
  });

  it("judges the addresses a connection's own resolver returns, not its name", async () => {
    const server = net.createServer((socket) => socket.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const dial = (address: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({
          host: 'receiver.test',
          port,
          // Node asks for every address (autoSelectFamily) or for one.
          lookup: (_host, options, callback) =>
            options.all
              ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
                  { address, family: 4 },
                ])
              : (callback as (e: null, a: string, f: number) => void)(null, address, 4),
        });
        socket.on('data', (data) => resolve(data.toString()));
        socket.on('error', reject);
      });
    await expect(dial('127.0.0.1')).resolves.toBe('ok');
    const violations = await expectViolations(() => dial('192.0.2.1'));
    server.close();
    expect(violations).toEqual(['a connection to receiver.test (192.0.2.1)']);
  });

  it('is inherited by child processes, which report to the log file', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'loopback-child-')), 'violations.log');
    const register = fileURLToPath(new URL('../src/loopback-guard.register.ts', import.meta.url));
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        register,
        '-e',
        "try { require('node:net').connect(80, '192.0.2.1') } catch (e) { console.log(e.code) }",
      ],
      { env: { ...process.env, NODE_OPTIONS: '', SKIPTRACE_LOOPBACK_GUARD_LOG: log }, encoding: 'utf8' },
    );
    expect(child.stdout.trim()).toBe('ENONLOOPBACK');
    expect(readFileSync(log, 'utf8')).toContain('a connection to 192.0.2.1');
  });
});
