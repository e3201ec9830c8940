#!/usr/bin/env bash
# Restarts svc instances one at a time behind a load balancer (docs/deploy.md, "Rolling restart"):
# for each instance, take it out of the balancer (--out, for balancers that do not probe /readyz),
# restart it (the command returns once the old process has drained and exited and the new one is
# started), wait until its /readyz answers 200, put it back (--in), then wait --settle seconds so
# the balancer sends it traffic again before the next instance goes down. Stops at the first
# instance that does not come back, so at most one instance is ever out.
#
#   scripts/rolling-restart.sh [options] INSTANCE...
#   scripts/rolling-restart.sh 8081 8082                     # svc@8081 and svc@8082 (systemd template)
#
# Options (each {} is replaced by the instance name):
#   --out CMD        before the restart: take the instance out of the balancer (default: nothing)
#   --in CMD         once it is ready: put it back (default: nothing)
#   --restart CMD    default: systemctl restart svc@{}
#   --ready-url URL  default: http://127.0.0.1:{}/readyz
#   --timeout S      seconds an instance has to answer /readyz 200 after its restart (default 120)
#   --settle S       seconds to wait after that; at least nginx's fail_timeout (default 10)
set -euo pipefail

restart='systemctl restart svc@{}'
take_out=''
put_in=''
ready_url='http://127.0.0.1:{}/readyz'
timeout=120
settle=10
instances=()
while [ $# -gt 0 ]; do
  case "$1" in
    --restart) restart=$2; shift 2 ;;
    --out) take_out=$2; shift 2 ;;
    --in) put_in=$2; shift 2 ;;
    --ready-url) ready_url=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "rolling-restart: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) instances+=("$1"); shift ;;
  esac
done
if [ ${#instances[@]} -eq 0 ]; then
  echo "rolling-restart: name at least one instance (see --help)" >&2
  exit 2
fi

say() { echo "$(date -u +%H:%M:%S) rolling-restart: $*"; }

# ready URL SECONDS: until URL answers 200, or false when SECONDS pass.
ready() {
  local url=$1 until=$((SECONDS + $2))
  while [ $SECONDS -lt $until ]; do
    curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null && return 0
    sleep 1
  done
  return 1
}

for instance in "${instances[@]}"; do
  url=${ready_url//\{\}/$instance}
  if [ -n "$take_out" ]; then say "$instance: out of the balancer"; bash -c "${take_out//\{\}/$instance}"; fi
  say "$instance: restarting"
  bash -c "${restart//\{\}/$instance}"
  if ! ready "$url" "$timeout"; then
    say "$instance: $url did not answer 200 within ${timeout}s; stopping here, the other instances are untouched" >&2
    exit 1
  fi
  if [ -n "$put_in" ]; then say "$instance: back in the balancer"; bash -c "${put_in//\{\}/$instance}"; fi
  say "$instance: ready; letting the balancer take it back for ${settle}s"
  sleep "$settle"
done
say "done: ${instances[*]}"
