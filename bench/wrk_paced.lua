-- wrk_requests.lua at a set pace: each connection waits PACE milliseconds (the third argument
-- after `--`) before each of its requests, so that C connections offer at most
-- C * 1000 / (PACE + latency) requests a second instead of as many as the server can answer.
-- A benchmark below saturation measures what other work costs a request's latency; a
-- saturating one only shows who gets the CPU.
--
--   wrk -t1 -c16 -d12s --latency -s bench/wrk_paced.lua http://127.0.0.1:8765 -- PREFIX MODE PACE
--
-- wrk takes a script's delay() only when the script defines it as it is loaded, so pacing
-- is this file, not an option of wrk_requests.lua. wrk times each request from its sending,
-- after the wait.

dofile(debug.getinfo(1, "S").source:sub(2):match("^(.*/)") .. "wrk_requests.lua")

local unpaced_init = init

function init(args)
  unpaced_init(args)
  pace = tonumber(args[3]) or 0
end

function delay()
  return pace
end
