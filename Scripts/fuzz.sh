#!/usr/bin/env bash
# Builds Rewind's libFuzzer targets with AddressSanitizer and runs each for SECONDS (default 60).
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]
#
# TARGET: FuzzLogReader, FuzzJSONDecoder, FuzzMigratedLog, FuzzRecordingsFolder,
# FuzzDevToolsImport (default: all five).
#
# FUZZ_SEED=N makes a run repeatable (libFuzzer's -seed; default 0, a random seed): .ci/run runs
# `FUZZ_SEED=1 Scripts/fuzz.sh 5`, a smoke test that the targets build and pass their seeds.
#
# Seeds come from Fuzz/Corpus/<name>/ (committed, our own), for FuzzDevToolsImport from
# Fixtures/redux-devtools/, and for FuzzJSONDecoder from JSONTestSuite's parsing corpus read in
# place from ../shared/corpora/JSONTestSuite/test_parsing (or $REWIND_JSONTESTSUITE; skipped with
# a note when absent — it is never copied into the repository). New inputs go to Fuzz/corpus-work/<name>/ (ignored by git). Crashes are written to
# Fuzz/artifacts/ — turn each into a regression test.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(FuzzLogReader FuzzJSONDecoder FuzzMigratedLog FuzzRecordingsFolder FuzzDevToolsImport)

export SWIFT_BACKTRACE=enable=no
swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library \
  -Xswiftc -sanitize=fuzzer,address \
  --scratch-path .build-fuzz
bin="$(swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library \
  -Xswiftc -sanitize=fuzzer,address \
  --scratch-path .build-fuzz --show-bin-path)"

jsontestsuite="${REWIND_JSONTESTSUITE:-$(cd ../.. && pwd)/shared/corpora/JSONTestSuite/test_parsing}"

mkdir -p artifacts
for target in "${targets[@]}"; do
  name="${target#Fuzz}"
  work="corpus-work/$name"
  mkdir -p "$work"
  seeds=()
  [ -d "Corpus/$name" ] && seeds+=("Corpus/$name")
  [ "$name" = DevToolsImport ] && seeds+=("../Fixtures/redux-devtools")
  if [ "$name" = JSONDecoder ]; then
    if [ -d "$jsontestsuite" ]; then
      seeds+=("$jsontestsuite")
    else
      echo "note: JSONTestSuite seeds skipped: no folder at $jsontestsuite (set REWIND_JSONTESTSUITE)"
    fi
  fi
  echo "== $target for ${seconds}s (seeds: ${seeds[*]}, work: $work)"
  "$bin/$target" "$work" "${seeds[@]}" -max_total_time="$seconds" -max_len=65536 \
    -seed="${FUZZ_SEED:-0}" \
    -rss_limit_mb=2048 -timeout=10 -artifact_prefix="artifacts/$target-" -print_final_stats=1 \
    2>&1 | tee "artifacts/$target.log" | grep -E '^#[0-9]+.*(DONE|pulse|NEW)|stat::|ERROR|SUMMARY' | tail -n 12
done
