#!/usr/bin/env bash
# Peak memory of `replay tui` on a log with a large state, against the bound of
# docs/reliability.md: the file + 3 × its largest line + 64 MiB. A terminal is needed, so the
# debugger runs inside tmux; keys step to the last action, unfold rows, show the diff pane and
# move in the state tree, then quit. The peak is the debugger process's own (`rewind-testbed
# peak`); an isolated run's replay worker is a process of its own, not counted here.
#
#   Scripts/tui-memory-check.sh          # builds rewind-testbed in release first
#   REWIND_TESTBED=path/to/rewind-testbed Scripts/tui-memory-check.sh
#
# The log: 300,000 todos (a 21 MB state) in the header and in a checkpoint after one action;
# run with --no-isolate on it, and isolated (the default) on a copy without the checkpoint,
# where the worker rebuilds the state and sends it back. Then a log of an app this binary does
# not know, whose header holds an array of 2,200,000 numbers (a 4 MB line of 2 bytes a value).
#
# Exits 1 when a run is over its bound or the screen does not show the state; prints
# "SKIPPED: …" and exits 0 without tmux or python3 (which writes the logs), or fails under
# CI=true without them.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in tmux python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    if [[ "${CI:-}" == "true" ]]; then
      echo "FAIL: $tool not available (CI=true needs it)"
      exit 1
    fi
    echo "SKIPPED: $tool not available"
    exit 0
  fi
done

if [[ -z "${REWIND_TESTBED:-}" ]]; then
  swift build -c release --product rewind-testbed >/dev/null
  REWIND_TESTBED="$(swift build -c release --show-bin-path)/rewind-testbed"
fi

source Scripts/tmux-driver.sh
export SWIFT_BACKTRACE=enable=no

python3 - "$WORK" <<'EOF'
import sys
work = sys.argv[1]
todos = ",".join(
    '{"id":%d,"title":"Todo number %d with some words","done":%s}'
    % (i, i, "true" if i % 3 == 0 else "false")
    for i in range(300_000))
state = '{"todos":[' + todos + '],"filter":"all","nextID":300001}'
header = ('{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo",'
          '"actionType":"TodoAction","stateType":"TodoState","recordedAt":"2026-01-01T00:00:00Z",'
          '"firstSeq":1,"checkpointInterval":1000,"state":' + state + '}\n')
action = '{"kind":"action","seq":1,"type":"setFilter","action":{"setFilter":{"_0":"all"}}}\n'
checkpoint = '{"kind":"checkpoint","seq":1,"state":' + state + '}\n'
with open(work + "/large.jsonl", "w") as f:
    f.write(header + action + checkpoint)
with open(work + "/no-checkpoint.jsonl", "w") as f:
    f.write(header + action)
# No app (the header's state is shown as the file holds it): 2,200,000 numbers in one array.
numbers = '{"samples":[' + ",".join(str(i % 10) for i in range(2_200_000)) + '],"meta":{}}'
with open(work + "/numbers.jsonl", "w") as f:
    f.write(header.replace('"app":"todo"', '"app":"unknown"').split('"state":')[0]
            + '"state":' + numbers + '}\n')
EOF

keys() { tmux_ send-keys -t "$CURRENT" "$@"; }

# Starts the debugger on $2 (with the options in $3) in a window named $1.
start() {
  local name="$1" log="$2" extra="${3:-}"
  tmux_ new-session -d -s "$name" -x 160 -y 48 \
    "'$REWIND_TESTBED' peak '$WORK/$name.peak' tui '$log' $extra; echo \$? > '$WORK/$name.status'; sleep 600"
  CURRENT="$name"
}

# Quits the debugger of window $1 on $2 and checks its peak against the bound of $2.
quit_within_bound() {
  local name="$1" log="$2" extra="${3:-}"
  local bytes line bound
  bytes=$(wc -c < "$log")
  line=$(wc -L < "$log")
  bound=$((bytes + 3 * (line + 1) + (64 << 20)))
  keys q
  for _ in $(seq 1 300); do
    [[ -s "$WORK/$name.status" ]] && break
    sleep 0.1
  done
  [[ "$(cat "$WORK/$name.status" 2>/dev/null)" == "0" ]] || fail "$name: replay tui did not exit with 0"
  local peak
  [[ -s "$WORK/$name.peak" && "$(cat "$WORK/$name.peak")" =~ ^[0-9]+$ ]] \
    || fail "$name: replay tui left no peak report"
  peak=$(cat "$WORK/$name.peak")
  if ((peak >= bound)); then
    fail "$name: replay tui $extra peaked at $((peak >> 20)) MiB, over its bound of $((bound >> 20)) MiB"
  fi
  pass "$name: replay tui $extra peaked at $((peak >> 20)) MiB (bound $((bound >> 20)) MiB for a $((bytes >> 20)) MiB file)"
}

# Runs the debugger on the todo log $2 (with the options in $3), walks it, and checks its peak.
check() {
  local name="$1" log="$2" extra="${3:-}"
  start "$name" "$log" "$extra"
  wait_for "position 0/1" 120
  wait_for "todos: [300000 items]" 120
  # Into the state tree: unfold the second todo and go down into it.
  keys Tab Down Down Enter Down
  wait_for ">      id: 1" 120
  keys Tab End
  wait_for "position 1/1" 120
  if [[ -n "$extra" ]]; then
    wait_for "Press ! to rebuild" 120
    keys '!'
  fi
  keys d
  wait_for "Diff of action 1 (0 → 1)" 120
  wait_for "no changes" 120
  keys Tab j j Home
  wait_for "position 0/1" 120
  keys End
  wait_for "position 1/1" 120
  quit_within_bound "$name" "$log" "$extra"
}

# The array of numbers: into it, and a page down twice.
check_numbers() {
  start numbers "$WORK/numbers.jsonl"
  wait_for "samples: [2200000 items]" 120
  keys Tab Down Down Down Down
  wait_for ">    [3]: 3" 120
  keys NPage NPage
  wait_for ">    [89]: 9" 120
  quit_within_bound numbers "$WORK/numbers.jsonl"
}

check in-process "$WORK/large.jsonl" --no-isolate
check isolated "$WORK/no-checkpoint.jsonl"
check_numbers
