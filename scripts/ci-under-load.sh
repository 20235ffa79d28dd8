#!/usr/bin/env bash
# Runs CI (or the command given) with every core kept busy by a spinning process, several times in a row, stopping at the
# first failure: a test that passes only on an idle machine shows up here. RUNS (default 3) sets how many.
# Usage: scripts/ci-under-load.sh [command...]   (default: bash .ci/run; e.g. ../shared/tools/fresh-clone-check)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
[ "$#" -gt 0 ] || set -- bash .ci/run
cores=$(nproc)
spinners=()
for _ in $(seq "$cores"); do
  (while :; do :; done) &
  spinners+=($!)
done
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
echo "$cores core(s) kept busy; running $runs time(s): $*"
for run in $(seq "$runs"); do
  log=$(mktemp /tmp/ci-under-load.XXXXXX)
  start=$(date +%s)
  "$@" </dev/null >"$log" 2>&1
  rc=$?
  # CI's own totals line, else Vitest's (colours taken out).
  totals=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed|^ *Tests ' | tail -1 | sed 's/^ *//')
  echo "run $run of $runs: exit $rc after $(($(date +%s) - start)) s; $totals (log: $log)"
  [ $rc -eq 0 ] || exit $rc
done
echo "$runs run(s) in a row passed with $cores busy core(s)"
