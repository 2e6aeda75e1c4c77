/**
 * oidc-provider storage adapter over the KeyValueStore port: Redis in production, for the
 * artefacts that may be lost (oidc-artefacts.ts: interactions, pushed authorization
 * requests; shared by replicas), memory in tests. Not for: grants, sessions or refresh
 * tokens — Redis is not a system of record here. Layout under the
 * kv's own prefix:
 *   oidc:<Model>:<id>        JSON payload, expiring with the artefact
 *   oidc:grant:<grantId>     set of payload keys issued under a grant (for revokeByGrantId)
 *   oidc:uid:<uid>, oidc:userCode:<code>   secondary indexes pointing at an id
 *   oidc:consumed:<Model>:<id>   consumption marker of a consumable artefact
 * consume() sets the marker with SET NX (atomic on Redis, and in the memory store, which
 * checks and sets in one turn of the event loop), expiring with the artefact: of concurrent
 * consumers exactly one sets it; the others revoke the grant and fail as a reuse
 * (oidc-single-use.ts). find() reports `consumed` from the marker.
 */
import type { KeyValueStore } from '@skiptrace/kv';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { alreadyConsumed, CONSUMABLE, revokesGrantOnReuse, vanished } from './oidc-single-use.ts';

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export function createKvAdapter(kv: KeyValueStore, name: string): Adapter {
  const key = (id: string) => `oidc:${name}:${id}`;
  const marker = (id: string) => `oidc:consumed:${name}:${id}`;
  const consumable = CONSUMABLE.has(name);
  const load = async (id: string): Promise<AdapterPayload | undefined> => {
    const [raw, consumedAt] = await Promise.all([kv.get(key(id)), consumable ? kv.get(marker(id)) : null]);
    if (raw === null) return undefined;
    const payload = JSON.parse(raw) as AdapterPayload;
    return consumedAt === null ? payload : { ...payload, consumed: Number(consumedAt) };
  };
  const revokeGrant = async (grantId: string) => {
    const grantKey = `oidc:grant:${grantId}`;
    const members = await kv.members(grantKey);
    await kv.del(...members, grantKey, `oidc:Grant:${grantId}`);
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
      const ttl = await kv.ttl(key(id));
      if (ttl === -2) throw vanished(name);
      const now = String(Math.floor(Date.now() / 1000));
      if (await kv.set(marker(id), now, { ttlMs: ttl > 0 ? ttl : undefined, onlyIfAbsent: true })) return;
      const payload = await load(id);
      if (payload?.grantId && revokesGrantOnReuse(name)) await revokeGrant(payload.grantId);
      throw alreadyConsumed(name);
    },
    async destroy(id) {
      // The marker stays until it expires: a consumer that read the artefact before this
      // destroy must still lose its SET NX (deleting the marker let a second one win).
      await kv.del(key(id));
    },
    async revokeByGrantId(grantId) {
      const grantKey = `oidc:grant:${grantId}`;
      const members = await kv.members(grantKey);
      await kv.del(...members, grantKey);
    },
  };
}
