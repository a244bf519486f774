"""The Lua scripts the store runs in Redis: each does its read-and-write in one round trip.

Scripts rather than WATCH/MULTI: one command instead of five, nothing to retry
but a lost compare-and-set, and they run the same on one server and in a
cluster: every script's keys share a hash tag (so one slot), and a script touches
only the keys it is given (a cluster node holds no others).
"""

from __future__ import annotations

# Set (or delete) a record if it still holds exactly what the caller read.
# KEYS[1]: the record; KEYS[2] (optional): a second key written with it.
# ARGV: [1] '1' if it was there ('0': absent), [2] the value read, [3] the new value
# ('' deletes it), [4] its ttl in seconds, [5] [6] the second key's value and ttl.
COMPARE_AND_SET = """
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if current ~= ARGV[2] then return 0 end
elseif current then
  return 0
end
if ARGV[3] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4])
end
if KEYS[2] then redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[6]) end
return 1
"""

# Put this release's records in place of a first-release one, if the game still holds
# exactly what was read. KEYS[1]: the game; KEYS[2]: the group record; KEYS[3..]: the
# hand records. ARGV: [1] the record read, [2] the match, [3] the ttl, [4] the group
# record, [5..] the hand records ('' for none). A delivery record already there is kept.
UPGRADE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
for i = 2, #KEYS do
  local value = ARGV[i + 2]
  if value ~= '' then redis.call('SET', KEYS[i], value, 'EX', ARGV[3], 'NX') end
end
return 1
"""

# Set an unreadable game aside, if it still holds exactly ARGV[1]: KEYS[1] the game,
# KEYS[2] where it is kept (for ARGV[2] seconds), KEYS[3..] its delivery records (gone).
SET_ASIDE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
redis.call('DEL', KEYS[1], unpack(KEYS, 3))
return 1
"""

# Take the games due by ARGV[1] (ms), at most ARGV[3]: each is pushed to now + ARGV[2]
# (a lease: if the taker dies, it is due again then). Returns the games, the lease's
# time and the earliest due time left (or '').
DUE_TAKE = """
local now = tonumber(ARGV[1])
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
local lease = now + tonumber(ARGV[2])
for _, member in ipairs(found) do redis.call('ZADD', KEYS[1], lease, member) end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {found, lease, first[2] or ''}
"""

# After working on a game: if its due time is still the one the worker started from
# (ARGV[2]), set it to what is due next (ARGV[3], '' for nothing); if someone noted an
# earlier time meanwhile, keep the earlier of the two.
DUE_SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and ARGV[2] ~= '' and tonumber(score) == tonumber(ARGV[2]) then
  if ARGV[3] == '' then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  end
elseif ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[1], 'LT', ARGV[3], ARGV[1])
end
return 1
"""

# One call to Telegram from the token's budget, for every process at once.
# KEYS: [1] the token's recent calls, [2] the chat's recent calls, [3] the chat's pause,
# [4] the bot's pause. ARGV: [1] now (ms), [2] calls allowed in the token's window,
# [3] that window (ms), [4] calls allowed in the chat's window (0: no chat limit),
# [5] that window (ms), [6] a unique name for this call.
# Returns {0, 0} when the call may go (it is counted), else {ms to wait, why}: why is
# 1 for the token's window, 2 for the chat's window or pause, 3 for the bot's pause.
BUDGET_TAKE = """
local now = tonumber(ARGV[1])
local paused = redis.call('PTTL', KEYS[4])
if paused > 0 then return {paused, 3} end
paused = redis.call('PTTL', KEYS[3])
if paused > 0 then return {paused, 2} end
local chat_limit = tonumber(ARGV[4])
local chat_window = tonumber(ARGV[5])
if chat_limit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - chat_window)
  local count = redis.call('ZCARD', KEYS[2])
  if count >= chat_limit then
    local first = count - chat_limit
    local leaving = redis.call('ZRANGE', KEYS[2], first, first, 'WITHSCORES')
    return {math.max(1, tonumber(leaving[2]) + chat_window - now), 2}
  end
end
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local leaving = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  return {math.max(1, tonumber(leaving[2]) + window - now), 1}
end
redis.call('ZADD', KEYS[1], now, ARGV[6])
redis.call('PEXPIRE', KEYS[1], window * 2)
if chat_limit > 0 then
  redis.call('ZADD', KEYS[2], now, ARGV[6])
  redis.call('PEXPIRE', KEYS[2], chat_window * 2)
end
return {0, 0}
"""

# A board call to a chat takes a token of the chat's bucket, shared by its topics and
# processes. KEYS[1]: the bucket (its tokens, and when they were counted). ARGV: [1] now
# (ms), [2] ms for one token to come back, [3] the bucket's size. Returns 0 once a token
# is taken, else the ms until one is there.
BOARD_TURN = """
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local size = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or size
local at = tonumber(state[2]) or now
if interval > 0 then tokens = math.min(size, tokens + math.max(0, now - at) / interval) end
if tokens >= 1 or interval <= 0 then
  redis.call('HSET', KEYS[1], 'tokens', tostring(math.max(0, tokens - 1)), 'at', now)
  redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(interval * size)))
  return 0
end
return math.max(1, math.ceil((1 - tokens) * interval))
"""

# A call that took a while to reach Telegram counts from when it came back: ARGV[1] (ms)
# becomes the time of ARGV[2] in each window it is in (KEYS).
BUDGET_RESTAMP = """
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', 'GT', ARGV[1], ARGV[2])
end
return 1
"""

# Add a finished game to a chat's stats once. KEYS: [1] the ids of the games counted,
# [2] the stats (a hash by user id). ARGV: [1] the game's id, [2] now (s), [3] ids kept,
# [4] the keys' ttl (s), then for each player three: his field, the value read ('' for
# none) and the new value. Returns -1 if the game was counted already, 0 if a line is
# no longer what was read (nothing written: read again), 1 once written.
STATS_ADD = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
for i = 5, #ARGV, 3 do
  if (redis.call('HGET', KEYS[2], ARGV[i]) or '') ~= ARGV[i + 1] then return 0 end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
for i = 5, #ARGV, 3 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2]) end
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

# Rate a finished game once. KEYS: [1] the ids of the games rated (by time), [2] their
# changes (a hash by game id), [3] the ratings (a hash by user id), [4] the rated people
# by their last game. ARGV: [1] the game's id, [2] now (s), [3] game ids kept, [4] people
# kept, [5] the game's changes, then for each person three: his field, the value read
# ('' for none) and the new value. No TTL: ratings outlive idle months, and the oldest
# game ids and least recently rated people are dropped instead. Returns {-1, changes}
# if the game was rated already, {0, ''} if a line is no longer what was read (nothing
# written: read again), {1, ''} once written.
RATINGS_ADD = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return {-1, redis.call('HGET', KEYS[2], ARGV[1]) or ''}
end
for i = 6, #ARGV, 3 do
  if (redis.call('HGET', KEYS[3], ARGV[i]) or '') ~= ARGV[i + 1] then return {0, ''} end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[5])
local old = redis.call('ZRANGE', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
for _, game in ipairs(old) do
  redis.call('ZREM', KEYS[1], game)
  redis.call('HDEL', KEYS[2], game)
end
for i = 6, #ARGV, 3 do
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 2])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[i])
end
local gone = redis.call('ZRANGE', KEYS[4], 0, -tonumber(ARGV[4]) - 1)
for _, person in ipairs(gone) do
  redis.call('ZREM', KEYS[4], person)
  redis.call('HDEL', KEYS[3], person)
end
return {1, ''}
"""

# Delete KEYS[1] if it still holds what DUMP gave for it (ARGV[1]): a key moved by
# copying is removed only if nobody changed it since the copy. Returns 1 if deleted.
DELETE_IF_SAME = """
if redis.call('DUMP', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""
