#!/usr/bin/env bash
# Runs the tests under the sanitizers:
#   - AddressSanitizer with UndefinedBehaviorSanitizer once over the whole suite (scratch path
#     .build-asan), or over ASAN_FILTER's suites;
#   - ThreadSanitizer N times (default 3) over the concurrency-heavy suites (scratch path
#     .build-tsan): the store's concurrency tests, every recorder suite, the engine's
#     two-thread paths (decoding ahead, reading a log while it is indexed and checking its
#     checksums ahead, diffing two logs at once), and timelines and in-process `replay` runs
#     on several threads at once.
#
# Usage: Scripts/sanitizers.sh [-n N] [--only address|thread] [--ci]
#
#   --ci   what .ci/run runs: one ThreadSanitizer run, and AddressSanitizer + UBSan over the
#          suites of CI_ASAN_FILTER (the JSON coder and the validator's structural pass in C —
#          RewindJSONTests holds JSONStructuralPassTests —, the runtime and recorder, the engine,
#          and hostile input given to the replay binary) instead of every test
#
# Environment:
#   REWIND_SANITIZER is set to 'address' or 'thread' for the tests, which skip their peak-memory
#     checks under a sanitizer (its shadow memory makes resident size meaningless)
#   ASAN_FILTER   the suites AddressSanitizer runs (default: all; with --ci, CI_ASAN_FILTER)
#   TSAN_FILTER   the suites ThreadSanitizer runs (default
#     'StoreConcurrency|Recorder|Concurrency|ConcurrentInProcessRun|ActionPrefetch|ChecksumPrepass|LogBytes|LogDiff|
#     BackgroundRotation|BackgroundCheckpointTests')
#   ASAN_OPTIONS, LSAN_OPTIONS, TSAN_OPTIONS, UBSAN_OPTIONS   passed through (defaults below)
#
# ThreadSanitizer on Linux cannot see Synchronization.Mutex hand over a contended lock (its slow
# path is a futex call inside the uninstrumented standard library), so it reports races between
# two accesses that are both inside `withLock` of the same Mutex. That is why Rewind's code and
# tests lock with `Locked` (Sources/Rewind/Support/Locked.swift, a pthread mutex) instead.
#
# Each step's output goes to .build-sanitizers/<step>.log. Exit status: 0 when every build and
# run passed and no sanitizer reported anything, 1 otherwise, 2 on a usage error.
set -uo pipefail

usage() {
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
}

runs=3
only=""
ci=0
while [ $# -gt 0 ]; do
  case "$1" in
    -n | --runs) runs="${2:-}"; shift 2 ;;
    --only) only="${2:-}"; shift 2 ;;
    --ci) ci=1; runs=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "Error: unknown argument '$1'." >&2; usage >&2; exit 2 ;;
  esac
done
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "Error: -n needs a positive number of runs, not '$runs'." >&2
  exit 2
fi
case "$only" in "" | address | thread) ;; *)
  echo "Error: --only takes 'address' or 'thread', not '$only'." >&2
  exit 2 ;;
esac

cd "$(dirname "$0")/.."
logs=.build-sanitizers
mkdir -p "$logs"
tsan_filter="${TSAN_FILTER:-StoreConcurrency|Recorder|Concurrency|ConcurrentInProcessRun|ActionPrefetch|ChecksumPrepass|LogBytes|LogDiff|BackgroundRotation|BackgroundCheckpointTests|IntervalDurability|LiveDispatch}"
ci_asan_filter="RewindJSONTests|RewindTests|RewindReplayTests|HostileJSONLog|ErrorMessage|SpecialFile|LiveDispatch"
asan_filter="${ASAN_FILTER:-}"
if [ "$ci" -eq 1 ] && [ -z "$asan_filter" ]; then asan_filter="$ci_asan_filter"; fi

# Swift's backtracer and the sanitizers both want the fatal signals; let the sanitizer report.
export SWIFT_BACKTRACE=enable=no
# Keep going after the first report so that one run shows every race; exit 66 when there was one.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 exitcode=66 second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1 halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1 print_stacktrace=1}"
# Leaks of the toolchain's own libraries, not of Rewind (Swift 6.3 on Linux): XCTest's runner;
# FoundationEssentials' file reading (a 4 KiB buffer per Data(contentsOf:)/String(contentsOf:) of
# some files); Foundation's Process and Pipe, kept alive in a cycle while a child is unreaped.
# A leak anywhere else fails the run. Children (the replay binary, the testbed) get it too.
lsan_suppressions="$PWD/$logs/lsan-suppressions.txt"
cat >"$lsan_suppressions" <<'SUPPRESSIONS'
leak:libXCTest.so
leak:readBytesFromFile
leak:Foundation7ProcessC
leak:Foundation4PipeC
SUPPRESSIONS
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$lsan_suppressions print_suppressions=0}"

summary=()
failed=0

# The number of sanitizer reports in a log.
count_reports() {
  grep -c -E 'WARNING: ThreadSanitizer:|ERROR: AddressSanitizer:|ERROR: LeakSanitizer:|: runtime error: ' "$1"
}

# step NAME COMMAND...: runs the command with its output in $logs/NAME.log, and records the
# outcome. Retries a build that failed only because a source file changed during it.
step() {
  local name="$1"
  shift
  local log="$logs/$name.log"
  local started=$SECONDS
  local status
  for attempt in 1 2 3; do
    "$@" >"$log" 2>&1
    status=$?
    if [ $status -ne 0 ] && grep -q 'was modified during the build' "$log"; then
      echo "  ($name: a source file changed during the build; retrying, attempt $attempt)"
      sleep 20
      continue
    fi
    break
  done
  local seconds=$((SECONDS - started))
  local reports
  reports=$(count_reports "$log")
  local tests
  tests=$(grep -E '^(✔|✘) Test run with' "$log" | tail -1 | sed -E 's/^(✔|✘) //')
  if [ $status -eq 0 ] && [ "$reports" -eq 0 ]; then
    summary+=("PASS  $name  (${seconds}s) $tests")
  else
    failed=1
    summary+=("FAIL  $name  (${seconds}s, status $status, $reports sanitizer report(s)) $tests — $log")
    if [ "$reports" -gt 0 ]; then
      echo "---- first sanitizer report of $name ($log):"
      grep -m1 -A40 -E 'WARNING: ThreadSanitizer:|ERROR: AddressSanitizer:|ERROR: LeakSanitizer:|: runtime error: ' "$log"
      echo "----"
    else
      echo "---- end of $log:"
      tail -30 "$log"
      echo "----"
    fi
  fi
  echo "${summary[${#summary[@]} - 1]}"
  return $status
}

if [ -z "$only" ] || [ "$only" = address ]; then
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer: building (.build-asan)"
  # UBSan through clang for the C target (RewindCPU); swiftc has no -sanitize=undefined, and
  # Swift code traps on overflow and out-of-bounds access by itself.
  ubsan=(-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
  if step asan-build swift build --build-tests --sanitize=address "${ubsan[@]}" \
    --scratch-path .build-asan; then
    if [ -n "$asan_filter" ]; then
      echo "== AddressSanitizer + UBSan: --filter '$asan_filter'"
      step asan-test env REWIND_SANITIZER=address swift test --skip-build --sanitize=address \
        "${ubsan[@]}" --scratch-path .build-asan --filter "$asan_filter"
    else
      echo "== AddressSanitizer + UBSan: every test"
      step asan-test env REWIND_SANITIZER=address swift test --skip-build --sanitize=address \
        "${ubsan[@]}" --scratch-path .build-asan
    fi
  fi
fi

if [ -z "$only" ] || [ "$only" = thread ]; then
  echo "== ThreadSanitizer: building (.build-tsan)"
  if step tsan-build swift build --build-tests --sanitize=thread --scratch-path .build-tsan; then
    for run in $(seq 1 "$runs"); do
      echo "== ThreadSanitizer: run $run of $runs, --filter '$tsan_filter'"
      step "tsan-test-$run" env REWIND_SANITIZER=thread \
        swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$tsan_filter"
    done
  fi
fi

echo
echo "== Summary"
printf '%s\n' "${summary[@]}"
exit $failed
