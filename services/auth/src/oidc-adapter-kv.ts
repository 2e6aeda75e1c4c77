/**
 * oidc-provider storage adapter over the KeyValueStore port: Redis in production (artefacts
 * survive an auth restart and are shared by replicas), memory in tests. Layout under the
 * kv's own prefix:
 *   oidc:<Model>:<id>        JSON payload, expiring with the artefact
 *   oidc:grant:<grantId>     set of payload keys issued under a grant (for revokeByGrantId)
 *   oidc:uid:<uid>, oidc:userCode:<code>   secondary indexes pointing at an id
 * consume() rewrites the payload with `consumed` set, keeping the remaining time to live.
 * It is read-modify-write, not atomic: two concurrent consumers of one code can both
 * succeed; oidc-provider's reuse detection then only sees the later presentation.
 */
import type { KeyValueStore } from '@skiptrace/kv';
import type { Adapter, AdapterPayload } from 'oidc-provider';

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export function createKvAdapter(kv: KeyValueStore, name: string): Adapter {
  const key = (id: string) => `oidc:${name}:${id}`;
  const load = async (id: string): Promise<AdapterPayload | undefined> => {
    const raw = await kv.get(key(id));
    return raw === null ? undefined : (JSON.parse(raw) as AdapterPayload);
  };
  return {
    async upsert(id, payload, expiresIn) {
      const ttlMs = expiresIn ? expiresIn * 1000 : undefined;
      await kv.set(key(id), JSON.stringify(payload), { ttlMs });
      if (GRANTABLE.has(name) && payload.grantId) {
        const grantKey = `oidc:grant:${payload.grantId}`;
        const current = await kv.ttl(grantKey);
        // The index lives as long as its longest-lived member.
        const keep = ttlMs === undefined || current === -1 ? undefined : Math.max(current, ttlMs);
        await kv.addToSet(grantKey, key(id), keep);
      }
      if (payload.uid) await kv.set(`oidc:uid:${payload.uid}`, id, { ttlMs });
      if (payload.userCode) await kv.set(`oidc:userCode:${payload.userCode}`, id, { ttlMs });
    },
    find: load,
    async findByUid(uid) {
      const id = await kv.get(`oidc:uid:${uid}`);
      return id === null ? undefined : load(id);
    },
    async findByUserCode(userCode) {
      const id = await kv.get(`oidc:userCode:${userCode}`);
      return id === null ? undefined : load(id);
    },
    async consume(id) {
      const payload = await load(id);
      if (!payload) return;
      const ttl = await kv.ttl(key(id));
      if (ttl === -2) return;
      payload.consumed = Math.floor(Date.now() / 1000);
      await kv.set(key(id), JSON.stringify(payload), { ttlMs: ttl > 0 ? ttl : undefined });
    },
    async destroy(id) {
      await kv.del(key(id));
    },
    async revokeByGrantId(grantId) {
      const grantKey = `oidc:grant:${grantId}`;
      const members = await kv.members(grantKey);
      await kv.del(...members, grantKey);
    },
  };
}
