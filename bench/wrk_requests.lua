-- Requests for wrk from tab-separated files: METHOD, PATH, bearer token (or empty), body (or
-- empty), one request per line. wrk thread k reads PREFIX-k.tsv.
--
--   wrk -t1 -c16 -d12s --latency -s bench/wrk_requests.lua http://127.0.0.1:8765 -- PREFIX MODE
--
-- MODE "cycle" repeats the file; "once" sends each line once and stops the thread at the end
-- (for moves, which each position allows only once). done() prints one RESULT line with
-- requests/s and latency percentiles in microseconds, and a STATUS line per status code.

local counter = 0
local threads = {}

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local prefix = args[1]
  mode = args[2] or "cycle"
  reqs = {}
  for line in io.lines(prefix .. "-" .. id .. ".tsv") do
    local method, path, token, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
    local headers = {}
    if token ~= "" then
      headers["Authorization"] = "Bearer " .. token
    end
    if body ~= "" then
      headers["Content-Type"] = "application/json"
    else
      body = nil
    end
    reqs[#reqs + 1] = wrk.format(method, path, headers, body)
  end
  -- wrk calls request() once right after init() to check the script's request (its
  -- script_verify_request) and throws that request away. Give it a harmless GET /healthz, so
  -- no line of the file is lost (a lost move would make the rest of its hand 409 stale).
  primer = wrk.format("GET", "/healthz")
  i = 0
  codes = {}
  exhausted = 0
end

function request()
  if primer ~= nil then
    local r = primer
    primer = nil
    return r
  end
  i = i + 1
  if i > #reqs then
    if mode == "once" then
      exhausted = 1
      wrk.thread:stop()
    end
    i = 1
  end
  return reqs[i]
end

function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
  if status >= 300 and sample == nil then
    sample = status .. " " .. body
  end
end

function done(summary, latency, requests)
  local agg = {}
  local ex = 0
  for _, t in ipairs(threads) do
    for code, n in pairs(t:get("codes")) do
      agg[code] = (agg[code] or 0) + n
    end
    ex = ex + t:get("exhausted")
    local s = t:get("sample")
    if s ~= nil then
      io.write("SAMPLE " .. s .. "\n")
    end
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d rps=%.1f p50=%d p90=%d p95=%d p99=%d max=%d mean=%.0f " ..
    "connect=%d read=%d write=%d timeout=%d status_errors=%d exhausted=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(95),
    latency:percentile(99), latency.max, latency.mean,
    e.connect, e.read, e.write, e.timeout, e.status, ex))
  for code, n in pairs(agg) do
    io.write(string.format("STATUS %s %d\n", code, n))
  end
end
