#!/usr/bin/env bash
# Re-creates Tests/GeneratedTests/ with `replay gen-test` on the fixtures (and Fixtures/ itself
# with rewind-testbed when given --fixtures). ReplayCLITests fails when these files are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product replay
bin="$(swift build --show-bin-path)"
if [ "${1:-}" = "--fixtures" ]; then
  swift build --product rewind-testbed
  "$bin/rewind-testbed" fixtures Fixtures
fi
"$bin/replay" gen-test Fixtures/counter.jsonl --name counterSessionReplays \
  > Tests/GeneratedTests/CounterSessionTest.swift
"$bin/replay" gen-test Fixtures/todo-session.jsonl --from 300 --name todoSessionReplays300To340 \
  > Tests/GeneratedTests/TodoSessionTest.swift
"$bin/replay" gen-test Fixtures/todo-crash.jsonl --from 30 --name todoCrashReproduces \
  > Tests/GeneratedTests/TodoCrashTest.swift
echo "generated Tests/GeneratedTests/*.swift"
