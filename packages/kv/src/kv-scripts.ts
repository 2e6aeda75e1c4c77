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
 * Grouped schedules: a sorted set per group (member -> due ms), and an index sorted set
 * (group -> due ms of its earliest member). The index may hold a group earlier than its
 * earliest member (after an unschedule or a lease), never later: a claim that visits the
 * group puts it right. The group keys are the index key + ':' + group; they share the index
 * key's hash tag, so a Redis Cluster keeps a schedule in one slot.
 */

/**
 * KEYS[1] index, KEYS[2] the group's set; ARGV[1] due ms, ARGV[2] member, ARGV[3] group.
 * Adds or moves the member, and moves the group earlier in the index when it is now due sooner.
 */
export const SCHEDULE_LUA = `
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2])
local current = redis.call('ZSCORE', KEYS[1], ARGV[3])
if not current or tonumber(ARGV[1]) < tonumber(current) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
end
return 1
`;

/** KEYS[1] index, KEYS[2] the group's set; ARGV[1] member, ARGV[2] group. Drops an emptied group. */
export const UNSCHEDULE_LUA = `
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('ZREM', KEYS[1], ARGV[2]) end
return 1
`;

/** Most groups one claim visits; the ones it visits move back, so the rest come next. */
export const CLAIM_MAX_GROUPS = 1000;

/**
 * KEYS[1] index. ARGV[1] now ms, ARGV[2] lease end ms, ARGV[3] most members in all,
 * ARGV[4] most per group, then pairs of group and its own limit. Visits due groups in
 * index order, takes each one's due members (lowest score first, up to its limit),
 * re-scores them to the lease end, and re-scores the group to its new earliest member
 * (or drops it when empty). Returns group, member, group, member, …
 */
export const CLAIM_DUE_LUA = `
local index = KEYS[1]
local now = ARGV[1]
local leaseUntil = ARGV[2]
local left = tonumber(ARGV[3])
local perGroup = tonumber(ARGV[4])
local limits = {}
for i = 5, #ARGV, 2 do limits[ARGV[i]] = tonumber(ARGV[i + 1]) end
local out = {}
if left <= 0 then return out end
local groups = redis.call('ZRANGEBYSCORE', index, '-inf', now, 'LIMIT', 0, ${CLAIM_MAX_GROUPS})
for _, group in ipairs(groups) do
  local take = limits[group] or perGroup
  if take > left then take = left end
  if take > 0 then
    local key = index .. ':' .. group
    local due = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, take)
    if #due > 0 then
      local args = {}
      for _, member in ipairs(due) do
        args[#args + 1] = leaseUntil
        args[#args + 1] = member
        out[#out + 1] = group
        out[#out + 1] = member
      end
      redis.call('ZADD', key, unpack(args))
      left = left - #due
    end
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if first[1] then redis.call('ZADD', index, first[2], group) else redis.call('ZREM', index, group) end
    if left <= 0 then break end
  end
end
return out
`;

/** KEYS[1] index. Members over all groups. */
export const SCHEDULED_LUA = `
local total = 0
for _, group in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  total = total + redis.call('ZCARD', KEYS[1] .. ':' .. group)
end
return total
`;
