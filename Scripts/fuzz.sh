#!/usr/bin/env bash
# Builds Rewind's libFuzzer targets with AddressSanitizer and runs each for SECONDS (default 60).
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]
#
# TARGET: FuzzLogReader, FuzzJSONDecoder, FuzzMigratedLog, FuzzRecordingsFolder,
# FuzzDevToolsImport, FuzzJSONStructure (default: all six).
#
# FUZZ_SEED=N (libFuzzer's -seed; default 0, a random seed) and FUZZ_RUNS=N (at most N inputs)
# make a run repeatable on a given corpus: .ci/run runs `FUZZ_SEED=1 FUZZ_RUNS=2000
# Scripts/fuzz.sh 60`, a smoke test that the targets build and pass their seeds and the same
# 2,000 inputs on every machine.
#
# Seeds come from Fuzz/Corpus/<name>/ (committed, our own), for FuzzDevToolsImport from
# Fixtures/redux-devtools/, and for FuzzJSONDecoder and FuzzJSONStructure (with FuzzJSONDecoder's
# seeds) from JSONTestSuite's parsing corpus read in
# place from ../shared/corpora/JSONTestSuite/test_parsing (or $REWIND_JSONTESTSUITE; skipped with
# a note when absent — it is never copied into the repository). New inputs go to Fuzz/corpus-work/<name>/ (ignored by git). Crashes are written to
# Fuzz/artifacts/ — turn each into a regression test.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(FuzzLogReader FuzzJSONDecoder FuzzMigratedLog FuzzRecordingsFolder FuzzDevToolsImport
    FuzzJSONStructure)

export SWIFT_BACKTRACE=enable=no
swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library \
  -Xswiftc -sanitize=fuzzer,address \
  --scratch-path .build-fuzz
bin="$(swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library \
  -Xswiftc -sanitize=fuzzer,address \
  --scratch-path .build-fuzz --show-bin-path)"

jsontestsuite="${REWIND_JSONTESTSUITE:-$(cd ../.. && pwd)/shared/corpora/JSONTestSuite/test_parsing}"

mkdir -p artifacts
failed=()
for target in "${targets[@]}"; do
  name="${target#Fuzz}"
  work="corpus-work/$name"
  mkdir -p "$work"
  seeds=()
  [ -d "Corpus/$name" ] && seeds+=("Corpus/$name")
  [ "$name" = DevToolsImport ] && seeds+=("../Fixtures/redux-devtools")
  [ "$name" = JSONStructure ] && seeds+=("Corpus/JSONDecoder")
  if [ "$name" = JSONDecoder ] || [ "$name" = JSONStructure ]; then
    if [ -d "$jsontestsuite" ]; then
      seeds+=("$jsontestsuite")
    else
      echo "note: JSONTestSuite seeds skipped: no folder at $jsontestsuite (set REWIND_JSONTESTSUITE)"
    fi
  fi
  runs=()
  [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
  echo "== $target for ${seconds}s${FUZZ_RUNS:+ or $FUZZ_RUNS runs} (seeds: ${seeds[*]}, work: $work)"
  # Every target runs even when one fails; a failure shows the end of its log (the harness's
  # `Fatal error` line, the stack, the input written to artifacts/).
  if "$bin/$target" "$work" "${seeds[@]}" -max_total_time="$seconds" -max_len=65536 \
    -seed="${FUZZ_SEED:-0}" "${runs[@]}" \
    -rss_limit_mb=2048 -timeout=10 -artifact_prefix="artifacts/$target-" -print_final_stats=1 \
    >"artifacts/$target.log" 2>&1; then
    grep -E '^#[0-9]+.*(DONE|pulse|NEW)|stat::' "artifacts/$target.log" | tail -n 12
  else
    echo "FAILED: $target (log: Fuzz/artifacts/$target.log)"
    tail -n 60 "artifacts/$target.log"
    failed+=("$target")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz targets that failed: ${failed[*]}"
  exit 1
fi
