/**
 * One behaviour suite for the oidc-provider storage adapters (kv and database), run
 * against every backend, so the embedded adapter cannot drift from the Redis one.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { Adapter } from 'oidc-provider';
import { waitUntil } from '@skiptrace/testing';

export interface AdapterBackend {
  adapter(name: string): Adapter;
  cleanup(): Promise<void>;
}

export function describeAdapterContract(name: string, backend: () => Promise<AdapterBackend>): void {
  describe(`oidc adapter contract: ${name}`, () => {
    let b: AdapterBackend;
    beforeAll(async () => {
      b = await backend();
    }, 60_000);
    afterAll(() => b.cleanup());

    it('upsert, find and destroy', async () => {
      const sessions = b.adapter('Session');
      await sessions.upsert('s1', { uid: 'u1', accountId: 'usr_1' }, 60);
      expect(await sessions.find('s1')).toMatchObject({ uid: 'u1', accountId: 'usr_1' });
      expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'usr_1' });
      await sessions.destroy('s1');
      expect(await sessions.find('s1')).toBeUndefined();
      expect(await b.adapter('Session').find('missing')).toBeUndefined();
    });

    it('models do not share ids', async () => {
      await b.adapter('Grant').upsert('same', { accountId: 'a' }, 60);
      expect(await b.adapter('Session').find('same')).toBeUndefined();
    });

    it('consume marks the payload and keeps it', async () => {
      const codes = b.adapter('AuthorizationCode');
      await codes.upsert('c1', { grantId: 'g0', clientId: 'cli' }, 60);
      expect((await codes.find('c1'))?.consumed).toBeFalsy();
      await codes.consume('c1');
      const consumed = await codes.find('c1');
      expect(consumed?.consumed).toBeTruthy();
      expect(consumed?.clientId).toBe('cli');
    });

    it.each([
      ['AuthorizationCode', 'invalid_grant'],
      ['RefreshToken', 'invalid_grant'],
      ['DeviceCode', 'invalid_grant'],
      ['BackchannelAuthenticationRequest', 'invalid_grant'],
      ['PreAuthorizedCode', 'invalid_grant'],
    ])('%s: of 20 concurrent consumers exactly one wins; the others revoke the grant', async (model, error) => {
      const grantId = `g-${model}`;
      await b.adapter('Grant').upsert(grantId, { accountId: 'usr_1', clientId: 'cli' }, 600);
      await b.adapter('AccessToken').upsert(`at-${model}`, { grantId }, 600);
      await b.adapter('RefreshToken').upsert(`rt-other-${model}`, { grantId }, 600);
      await b.adapter(model).upsert(`c-${model}`, { grantId, clientId: 'cli' }, 60);
      // A fresh adapter per consumer, as each request of each replica has its own.
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () => b.adapter(model).consume(`c-${model}`)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((x) => x.status === 'rejected'))
        expect((o as PromiseRejectedResult).reason).toMatchObject({ error, status: 400 });
      expect(await b.adapter('Grant').find(grantId)).toBeUndefined();
      expect(await b.adapter('AccessToken').find(`at-${model}`)).toBeUndefined();
      expect(await b.adapter('RefreshToken').find(`rt-other-${model}`)).toBeUndefined();
    });

    it('a sequential second consume fails as a reuse; a missing artefact fails as not found', async () => {
      const codes = b.adapter('AuthorizationCode');
      await codes.upsert('once', { grantId: 'g-seq', clientId: 'cli' }, 60);
      await codes.consume('once');
      await expect(codes.consume('once')).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(codes.consume('never-issued')).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('a pushed authorization request is consumed once; the loser gets invalid_request_uri', async () => {
      const par = b.adapter('PushedAuthorizationRequest');
      await par.upsert('par1', { clientId: 'cli' }, 60);
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => par.consume('par1')));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
        reason: { error: 'invalid_request_uri' },
      });
      expect((await par.find('par1'))?.consumed).toBeTruthy();
    });

    it('revokeByGrantId removes every token of the grant, and only those', async () => {
      await b.adapter('RefreshToken').upsert('r1', { grantId: 'g1' }, 600);
      await b.adapter('AccessToken').upsert('a1', { grantId: 'g1' }, 60);
      await b.adapter('RefreshToken').upsert('r2', { grantId: 'g2' }, 600);
      await b.adapter('RefreshToken').revokeByGrantId('g1');
      await b.adapter('AccessToken').revokeByGrantId('g1');
      expect(await b.adapter('RefreshToken').find('r1')).toBeUndefined();
      expect(await b.adapter('AccessToken').find('a1')).toBeUndefined();
      expect(await b.adapter('RefreshToken').find('r2')).toMatchObject({ grantId: 'g2' });
    });

    it('an expired payload is not found', async () => {
      const interactions = b.adapter('Interaction');
      await interactions.upsert('i1', { uid: 'x' }, 1);
      expect(await interactions.find('i1')).toBeDefined();
      await waitUntil(async () => (await interactions.find('i1')) === undefined, {
        timeoutMs: 4_000,
        message: 'expiry',
      });
    }, 6_000);
  });
}
