#!/usr/bin/env bash
# Load benchmark of `health serve` with wrk (Debian package `wrk`) on loopback.
# Starts the release server on a free port, then for a Lite-sized and a Complete-sized question
# runs wrk at 1, 8 and 64 connections and prints throughput, p50/p99 latency and errors, the
# server's resident memory before and after, how answers were degraded under pressure, and the
# micro-batching counters. Finally a long run (default 60 s, 64 connections, Lite question) checks
# that memory stays flat and the server is healthy afterwards.
# Usage: [HEALTH_SERVE_ARGS="…"] Benchmarks/load.sh [seconds-per-cell (10)] [long-run seconds (60)]
set -euo pipefail
cd "$(dirname "$0")/.."
cell=${1:-10}
long=${2:-60}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
swift build -c release >/dev/null 2>&1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
tmp=$(mktemp -d /tmp/health-load-XXXX)
# Extra server options for A/B runs, e.g. HEALTH_SERVE_ARGS="--batch-passes 2".
.build/release/health serve --port "$port" ${HEALTH_SERVE_ARGS:-} 2> "$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$tmp/server.log"; echo "server did not become ready" >&2; exit 1; }
rss() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status"; }
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m {print $2}'; }

lite='{"question": "sore throat and runny nose", "model": "lite"}'
complete='{"question": "fever, cough and shortness of breath for 3 days, 70 year old with COPD, no chest pain", "model": "complete"}'
for body in lite complete; do
  printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' \
    "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "${!body}")" > "$tmp/$body.lua"
done

# wrk hangs up with requests still queued in the server; let them finish so each cell starts idle.
drain() {
  for _ in $(seq 1 300); do
    [ "$(metric health_queue_depth)" = "0" ] && [ "$(metric health_in_flight)" = "0" ] && return
    sleep 0.1
  done
}

run() { # name connections seconds -> one table row
  local name=$1 conns=$2 secs=$3
  drain
  local threads=$(( conns < 2 ? 1 : 2 ))
  local before_lite before_bm25
  before_lite=$(metric 'health_degraded_total{to="lite"}'); before_bm25=$(metric 'health_degraded_total{to="bm25-only"}')
  local out
  out=$(wrk -t"$threads" -c"$conns" -d"${secs}s" --latency -s "$tmp/$name.lua" "http://127.0.0.1:$port/v1/ask")
  local rps p50 p99 errors non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  errors=$(awk '/Socket errors/ {gsub(",", ""); print $4+$6+$8+$10}' <<<"$out"); errors=${errors:-0}
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out"); non2xx=${non2xx:-0}
  local dl=$(( $(metric 'health_degraded_total{to="lite"}') - before_lite ))
  local db=$(( $(metric 'health_degraded_total{to="bm25-only"}') - before_bm25 ))
  printf '| %-8s | %5d | %9s | %8s | %8s | %6s | %7s | %9s | %9s | %8s |\n' "$name" "$conns" "$rps" "$p50" "$p99" "$errors" "$non2xx" "$dl" "$db" "$(rss) MiB"
}

echo "server pid $pid on port $port; RSS after warm-up: $(rss) MiB; $(nproc) cores; ${cell}s per cell"
echo "| question | conns | req/s     | p50      | p99      | socket errors | non-2xx | →lite | →bm25 | RSS after |"
echo "|----------|-------|-----------|----------|----------|--------|---------|-----------|-----------|----------|"
for name in lite complete; do
  for c in 1 8 64; do run "$name" "$c" "$cell"; done
done
echo
drain
start_rss=$(rss)
echo "long run: ${long}s, 64 connections, Lite question (RSS before ${start_rss} MiB)"
( for i in $(seq 1 $((long / 5))); do sleep 5; echo "  t=$((i * 5))s RSS $(rss) MiB"; done ) &
sampler=$!
run lite 64 "$long"
wait $sampler 2>/dev/null || true
echo "RSS before ${start_rss} MiB, after $(rss) MiB"
echo "micro-batching: $(metric health_embedding_requests_total) requests in $(metric health_embedding_batches_total) forward passes (largest $(metric health_embedding_largest_batch) texts)"
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && echo "healthz/readyz after the runs: ok"
curl -sf -X POST -H 'Content-Type: application/json' -d "$lite" "http://127.0.0.1:$port/v1/ask" | python3 -c 'import json,sys; a=json.load(sys.stdin); print("an answer after the runs:", a["triage"]["level"], a["model"]["name"], (a.get("degraded") or "not degraded"))'
