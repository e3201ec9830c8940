# Shared by the .ci scripts (source it): temp folders cleaned on exit, processes stopped by their id,
# free ports, and waiting for an HTTP health route.

# Every temporary folder of one script lives under this one, outside the checkout, removed on exit.
CI_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/svc-ci.XXXXXX")
CI_PIDS=()
CI_SCHEMAS=()
CI_DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
ci_cleanup() {
  local pid schema
  for pid in "${CI_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${CI_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  for schema in "${CI_SCHEMAS[@]}"; do psql -q "$CI_DATABASE_URL" -c "drop schema if exists $schema cascade" >/dev/null 2>&1 || true; done
  rm -rf "$CI_ROOT"
}
trap ci_cleanup EXIT

# ci_temp NAME: a new folder under CI_ROOT (a function called in $(…) runs in a subshell, so it
# cannot record anything for the cleanup; the cleanup removes CI_ROOT).
ci_temp() {
  mkdir "$CI_ROOT/$1"
  echo "$CI_ROOT/$1"
}

# ci_pg_schema NAME: a fresh schema in the CI database (dropped on exit); sets CI_SCHEMA_URL to a
# DATABASE_URL whose search_path is that schema, so a run never meets another run's tables.
ci_pg_schema() {
  local schema="ci_$1_$$"
  psql -q "$CI_DATABASE_URL" -c "create schema $schema"
  CI_SCHEMAS+=("$schema")
  CI_SCHEMA_URL="$CI_DATABASE_URL?options=-c%20search_path%3D$schema"
}

# A fresh receipt signing key in the form SVC_SIGNING_KEY takes (svc refuses to start on Postgres without one).
ci_signing_key() {
  openssl genpkey -algorithm ed25519 -outform DER | openssl base64 -A
}

# ci_copy_tree DEST: the checkout's files (tracked and untracked, not git-ignored) as the Docker build
# context sees them: without the paths .dockerignore names (its patterns are anchored at the root).
ci_copy_tree() {
  local dest=$1 pattern
  git ls-files -co --exclude-standard -z | tar -cf - --null -T - | tar -C "$dest" -xf -
  while read -r pattern; do
    [[ -z "$pattern" || "$pattern" == \#* ]] && continue
    (cd "$dest" && shopt -s nullglob dotglob && for path in $pattern; do rm -rf "$path"; done)
  done <.dockerignore
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
