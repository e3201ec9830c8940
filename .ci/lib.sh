# Shared by the .ci scripts (source it): temp folders cleaned on exit, processes stopped by their id,
# free ports, and waiting for an HTTP health route.

CI_TEMP=()
CI_PIDS=()
ci_cleanup() {
  local pid
  for pid in "${CI_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${CI_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "${CI_TEMP[@]}"
}
trap ci_cleanup EXIT

# A new folder outside the checkout, removed on exit.
ci_temp() {
  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/svc-ci-$1.XXXXXX")
  CI_TEMP+=("$dir")
  echo "$dir"
}

# A TCP port nobody listens on right now.
ci_free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# ci_wait_healthy URL SECONDS LOG PID: until URL answers 200, the process exits (its log is printed) or time runs out.
ci_wait_healthy() {
  local url=$1 seconds=$2 log=$3 pid=$4
  for _ in $(seq 1 "$seconds"); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "FAIL: the process exited before $url answered; its log:" >&2
      tail -n 40 "$log" >&2
      return 1
    fi
    sleep 1
  done
  echo "FAIL: $url did not answer 200 within ${seconds}s; the log:" >&2
  tail -n 40 "$log" >&2
  return 1
}
