import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import { createAuditLog, type AuditLog } from '../src/index.ts';

let db: Database;
let audit: AuditLog;

beforeAll(async () => {
  db = createPgliteDatabase();
  await db.migrate();
  audit = createAuditLog(db);
  await db.query(`INSERT INTO accounts (id, name) VALUES ('acc_a', 'A'), ('acc_b', 'B')`);
});
afterAll(() => db.close());

const at = (iso: string) => db.query(`UPDATE audit_log SET at = $1 WHERE id = (SELECT max(id) FROM audit_log)`, [iso]);

describe('audit log', () => {
  it('records, filters by actor, action and time, newest first, and per account', async () => {
    await audit.record({
      accountId: 'acc_a',
      action: 'user.signed_in',
      actor: { type: 'user', id: 'usr_1', email: 'ann@a.test' },
      clientId: 'skiptrace-console',
      sourceAddress: '127.0.0.1',
    });
    await at('2026-01-01T10:00:00Z');
    await audit.record({
      accountId: 'acc_a',
      action: 'client.created',
      actor: { type: 'user', id: 'usr_1' },
      clientId: 'skiptrace-console',
      target: { type: 'client', id: 'cli_x' },
    });
    await at('2026-01-02T10:00:00Z');
    await audit.record({ accountId: 'acc_b', action: 'client.created', actor: { type: 'client', id: 'cli_b' } });
    await audit.record({
      accountId: 'acc_a',
      action: 'result.erased',
      actor: { type: 'client', id: 'cli_x' },
      clientId: 'cli_x',
      target: { type: 'property', id: '42' },
    });
    await at('2026-01-03T10:00:00Z');

    const all = await audit.list('acc_a', { limit: 10 });
    expect(all.map((e) => e.action)).toEqual(['result.erased', 'client.created', 'user.signed_in']);
    expect(all[2]).toMatchObject({
      actor: { type: 'user', id: 'usr_1', email: 'ann@a.test' },
      client_id: 'skiptrace-console',
      source_address: '127.0.0.1',
      target: null,
      at: '2026-01-01T10:00:00.000Z',
    });
    expect(all[0]!.target).toEqual({ type: 'property', id: '42' });
    expect((await audit.list('acc_a', { limit: 10, actor: 'ANN@a.test' })).map((e) => e.action)).toEqual([
      'user.signed_in',
    ]);
    expect((await audit.list('acc_a', { limit: 10, actor: 'usr_1' })).length).toBe(2);
    expect((await audit.list('acc_a', { limit: 10, actor: 'cli_x' })).map((e) => e.action)).toEqual(['result.erased']);
    expect((await audit.list('acc_a', { limit: 10, action: 'client.created' })).length).toBe(1);
    const window = await audit.list('acc_a', {
      limit: 10,
      from: new Date('2026-01-02T00:00:00Z'),
      to: new Date('2026-01-03T00:00:00Z'),
    });
    expect(window.map((e) => e.action)).toEqual(['client.created']);
    const page = await audit.list('acc_a', { limit: 1, beforeId: all[0]!.id });
    expect(page.map((e) => e.id)).toEqual([all[1]!.id]);
  });

  it('sweeps entries past the retention only, and keeps everything with 0 days', async () => {
    const now = new Date('2026-01-04T00:00:00Z');
    expect(await audit.sweep(0, now)).toBe(0);
    // 2026-01-01 and -02 are older than 1.5 days before now; -03 and the undated B entry stay.
    expect(await audit.sweep(1.5, now)).toBe(2);
    expect((await audit.list('acc_a', { limit: 10 })).map((e) => e.action)).toEqual(['result.erased']);
  });
});
