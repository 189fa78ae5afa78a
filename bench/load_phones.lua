-- The phones of bench/load_bench.py --wrk: every watcher's and player's phone polling
-- its table's watch link, as htmx does, from wrk (C, one kept connection per phone).
--
-- wrk gives Lua no handle on a connection, so each request is the next phone's in
-- turn (round robin over GLEEK_PHONES, one watch id a line, one line a phone); each
-- phone asks with the version it knew at its previous turn (the newest this client
-- had seen then): a 204 if the table has not changed since, the live part if it has,
-- as a phone polling every few seconds sees it. After each response a connection
-- waits GLEEK_INTERVAL_MS (its first request: a random part of it, so the phones do
-- not all ask at once). Written at the end to GLEEK_OUT, as JSON: wrk's own figures
-- (latency in microseconds), the statuses and every response's X-App-Time (ms).

local phones_file = os.getenv("GLEEK_PHONES")
local interval = tonumber(os.getenv("GLEEK_INTERVAL_MS"))
local connections = tonumber(os.getenv("GLEEK_CONNECTIONS"))
local baseline = os.getenv("GLEEK_BASELINE") == "1"
local ramp = tonumber(os.getenv("GLEEK_RAMP_MS") or "0")   -- connected first, then polling (--ramp)

local phones, known, latest = {}, {}, {}
local turn, first_waits = 0, 0
statuses, app_ms = {}, {}

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   for wid in io.lines(phones_file) do
      table.insert(phones, wid)
   end
   math.randomseed(tonumber(os.getenv("GLEEK_SEED") or "5"))
   turn = math.random(#phones) - 1
end

function delay()
   if first_waits < connections then   -- each connection's first request
      first_waits = first_waits + 1
      return ramp + math.random(0, interval)
   end
   return interval
end

function request()
   turn = turn % #phones + 1
   if baseline then
      return wrk.format("GET", "/manifest.webmanifest")
   end
   local wid = phones[turn]
   local asked = known[turn] or "0"
   known[turn] = latest[wid]
   return wrk.format("GET", "/w/" .. wid .. "/live?v=" .. asked, {["HX-Request"] = "true"})
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
   local took = headers["X-App-Time"] or headers["x-app-time"]
   if took then
      app_ms[#app_ms + 1] = tonumber(took)
   end
   if status == 200 and not baseline then
      local wid, version = string.match(body, "/w/([%w_-]+)/live%?v=([%w-]+)")
      if wid then
         latest[wid] = version
      end
   end
end

function done(summary, latency, requests)
   local all_statuses, all_app = {}, {}
   for _, thread in ipairs(threads) do
      for status, count in pairs(thread:get("statuses")) do
         all_statuses[status] = (all_statuses[status] or 0) + count
      end
      for _, took in ipairs(thread:get("app_ms")) do
         all_app[#all_app + 1] = took
      end
   end
   local parts = {}
   for status, count in pairs(all_statuses) do
      parts[#parts + 1] = string.format('"%d": %d', status, count)
   end
   local e = summary.errors
   local out = io.open(os.getenv("GLEEK_OUT"), "w")
   out:write(string.format(
      '{"requests": %d, "duration_us": %d, "errors": {"connect": %d, "read": %d, "write": %d, "status": %d, ' ..
      '"timeout": %d}, "p50_us": %d, "p95_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %f, ' ..
      '"statuses": {%s}, "app_ms": [%s]}\n',
      summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max, latency.mean,
      table.concat(parts, ", "), table.concat(all_app, ", ")))
   out:close()
end
