/**
 * Lua scripts for the operations that must be atomic on Redis. Each touches only KEYS[1],
 * which the caller has already prefixed.
 */

/**
 * Fixed-window counter: INCR, and start the window (PEXPIRE) when the key has no expiry,
 * i.e. on the first hit. Same effect as PEXPIRE … NX, which needs Redis 7.
 * ARGV[1] window (ms). Returns { count, remaining window ms }.
 */
export const HIT_LUA = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

/**
 * Takes up to ARGV[2] members with score <= ARGV[1] (due), lowest score first, and moves
 * each to score ARGV[3] (the end of its lease). Returns the members taken.
 */
export const CLAIM_DUE_LUA = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], ARGV[3], member)
end
return due
`;
