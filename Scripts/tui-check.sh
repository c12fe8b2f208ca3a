#!/usr/bin/env bash
# End-to-end check of `replay tui` in a real terminal: drives the built binary inside tmux,
# sends keys, and checks what the screen shows after each, then that the terminal is put back
# (cooked mode, normal screen) after quitting, after SIGTERM, and after a reducer crash.
#
#   Scripts/tui-check.sh                 # builds `replay` first (swift build --product replay)
#   REPLAY=path/to/replay Scripts/tui-check.sh
#
# The live case (`replay tui --listen`) runs the testbed's counter app as the recording app:
# $REWIND_TESTBED, else a debug build (swift build --product rewind-testbed).
#
# Exits 0 when every check passes, 1 at the first failure (printing the screen), and prints
# "SKIPPED: tmux not available" and exits 0 without tmux.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "SKIPPED: tmux not available"
  exit 0
fi

if [[ -z "${REPLAY:-}" ]]; then
  swift build --product replay >/dev/null
  REPLAY="$(swift build --show-bin-path)/replay"
fi

source Scripts/tmux-driver.sh

# The in-process crash of section 4 dies at once, without the Swift backtracer's interactive
# prompt (a worker process sets its own backtracer settings, so section 3 still gets frames).
export SWIFT_BACKTRACE=enable=no

# Starts `replay tui LOG` in a new 100×30 window; the shell around it records replay's pid (the
# inner shell execs it), then its exit status and the terminal mode once it is gone, then waits
# to be killed.
start() {
  local name="$1" log="$2" extra="${3:-}"
  CURRENT="$name"
  printf 'echo $$ > "%s"\nexec "%s" tui "%s" %s\n' "$WORK/$name.pid" "$REPLAY" "$log" "$extra" > "$WORK/$name.sh"
  local wrapper="sh '$WORK/$name.sh'; echo \"exit=\$?\" > '$WORK/$name.status'; stty -a > '$WORK/$name.stty' 2>&1; sleep 600"
  if tmux_ has-session 2>/dev/null; then
    tmux_ new-window -d -n "$name" "$wrapper"
    tmux_ resize-window -t "$name" -x 100 -y 30 >/dev/null 2>&1 || true
  else
    tmux_ new-session -d -s check -n "$name" -x 100 -y 30 "$wrapper"
  fi
  CURRENT="check:$name"
}

# Waits for replay to end, then checks its exit status and that the terminal is usable again.
expect_restored() {
  local name="$1" status="$2"
  for _ in $(seq 1 100); do
    [[ -s "$WORK/$name.status" && -s "$WORK/$name.stty" ]] && break
    sleep 0.1
  done
  [[ -s "$WORK/$name.status" ]] || fail "$name: replay did not exit"
  grep -qx "exit=$status" "$WORK/$name.status" || fail "$name: $(cat "$WORK/$name.status"), expected exit=$status"
  grep -qw -- "icanon" "$WORK/$name.stty" && ! grep -qw -- "-icanon" "$WORK/$name.stty" \
    || fail "$name: the terminal is still in raw mode (no icanon)"
  grep -qw -- "echo" "$WORK/$name.stty" && ! grep -qw -- "-echo" "$WORK/$name.stty" \
    || fail "$name: the terminal does not echo"
  [[ "$(tmux_ display -p -t "$CURRENT" '#{alternate_on}')" == "0" ]] \
    || fail "$name: still on the alternate screen"
  pass "$name: exit status $status, cooked mode and the normal screen are back"
}

# 1. Keys on the todo session.
start keys Fixtures/todo-session.jsonl
wait_for "position 0/340"
expect_screen "[Actions]"
expect_screen "State at 0"
pass "opens at the initial state, both panes at 100×30"

tmux_ send-keys -t "$CURRENT" Right
wait_for "position 1/340"
expect_screen ">   1  0.250s  add"
tmux_ send-keys -t "$CURRENT" Right
wait_for "position 2/340"
expect_screen ">   2  0.500s  toggle"
pass "→ → steps to position 2 (actions 'add' and 'toggle' shown)"

tmux_ send-keys -t "$CURRENT" End
wait_for "position 340/340"
expect_screen "> 340"
pass "End goes to position 340"

tmux_ send-keys -t "$CURRENT" g
wait_for "goto:"
tmux_ send-keys -t "$CURRENT" 1 2 0 Enter
wait_for "position 120/340"
expect_screen "State at 120"
expect_screen "setFilter"
pass "g 120 ⏎ goes to position 120 (a setFilter action)"

tmux_ send-keys -t "$CURRENT" d
wait_for "Diff of action 120 (119 → 120)"
expect_screen 'filter: "all" → "completed"'
pass "d shows the diff pane"

tmux_ resize-window -t "$CURRENT" -x 50 -y 20
wait_for "·"
sleep 0.3
screen | grep -qF "State at" && fail "at 50 columns the state pane should be hidden"
expect_screen "[Actions]"
tmux_ resize-window -t "$CURRENT" -x 100 -y 8
wait_for "120/340 setFilter"
tmux_ resize-window -t "$CURRENT" -x 100 -y 30
wait_for "State at 120"
pass "redraws on SIGWINCH: one pane at 50×20, one line at 100×8, both panes again at 100×30"

tmux_ send-keys -t "$CURRENT" q
expect_restored keys 0

# 2. SIGTERM while running.
start term Fixtures/todo-session.jsonl
wait_for "position 0/340"
replay_pid="$(cat "$WORK/term.pid")"
[[ -n "$replay_pid" ]] || fail "cannot find the replay process"
kill -TERM "$replay_pid"
expect_restored term 143

# 3. A reducer that traps, in its worker process (the default): End stops before the crash with
#    its headline, → shows the crash card, and the debugger goes on.
start landed Fixtures/todo-crash.jsonl
wait_for "position 0/38"
tmux_ send-keys -t "$CURRENT" End
wait_for "position 37/38"
expect_screen "the app's reducer crashed on action 38"
pass "End on a crash log stops at 37, the last good state, with the crash's headline"
tmux_ send-keys -t "$CURRENT" Right
wait_for "position 38/38"
expect_screen "Index out of range"
expect_screen "Todo.swift:"
pass "→ onto action 38 shows the crash card: the runtime's message and the reducer's line"
tmux_ send-keys -t "$CURRENT" Left
wait_for "position 37/38"
expect_screen "State at 37"
tmux_ send-keys -t "$CURRENT" q
expect_restored landed 0

# 4. With --no-isolate, the crash log's last action is rebuilt in process only when confirmed
#    with '!', and then the trap ends replay and the terminal is restored.
start crash Fixtures/todo-crash.jsonl --no-isolate
wait_for "position 0/38"
tmux_ send-keys -t "$CURRENT" End
wait_for "Press ! to rebuild this state"
pass "the crash log's last action is not rebuilt until confirmed"
tmux_ send-keys -t "$CURRENT" "!"
for _ in $(seq 1 100); do [[ -s "$WORK/crash.status" ]] && break; sleep 0.1; done
crash_status="$(sed 's/exit=//' "$WORK/crash.status" 2>/dev/null || true)"
[[ "$crash_status" -gt 128 ]] || fail "crash: expected death by a signal, got exit=$crash_status"
expect_screen "the app's reducer stopped the process while applying action 38"
expect_restored crash "$crash_status"

# 5. `replay LOG --json` at a terminal: each command's line of JSON and nothing else on the
#    screen but what the terminal echoes (no prompt of the line editor).
CURRENT=json
printf 'exec "%s" "%s" --json\n' "$REPLAY" Fixtures/counter.jsonl > "$WORK/json.sh"
wrapper="sh '$WORK/json.sh'; echo \"exit=\$?\" > '$WORK/json.status'; sleep 600"
if tmux_ has-session 2>/dev/null; then
  tmux_ new-window -d -n json "$wrapper"
else
  tmux_ new-session -d -s check -n json -x 100 -y 30 "$wrapper"
fi
CURRENT="check:json"
sleep 1
tmux_ send-keys -t "$CURRENT" "goto 2" Enter
wait_for '{"position":2,'
screen | grep -qF "(replay" && fail "json: a prompt is on the screen"
pass "replay LOG --json at a terminal shows the results' JSON and no prompt"
tmux_ send-keys -t "$CURRENT" C-d
for _ in $(seq 1 100); do [[ -s "$WORK/json.status" ]] && break; sleep 0.1; done
grep -qx "exit=0" "$WORK/json.status" || fail "json: $(cat "$WORK/json.status" 2>/dev/null), expected exit=0"

# 6. replay tui --listen: the testbed's counter app records 200 actions, 50 ms apart, to the
#    listener; the action list grows as they arrive, the header names the app, a cursor moved
#    off the end stays, and the app's going away is shown.
if [[ -z "${REWIND_TESTBED:-}" ]]; then
  swift build --product rewind-testbed >/dev/null
  REWIND_TESTBED="$(swift build --show-bin-path)/rewind-testbed"
fi
live_socket="$WORK/live.sock"
start live --listen "--socket '$live_socket' --token tui-check --timeout 60"
# Wide enough for the header with a long host name.
tmux_ resize-window -t "$CURRENT" -x 160 -y 30 >/dev/null 2>&1 || true
wait_for "waiting for an app"
REWIND_LIVE="unix:$live_socket" REWIND_LIVE_TOKEN=tui-check \
  "$REWIND_TESTBED" live "$WORK/live-app.jsonl" 200 50 >/dev/null 2>"$WORK/live-app.err" &
live_app=$!
wait_for "replay · live · app counter (session "
# The header's action count, when the cursor is on the last action (it follows the end).
followed_count() { screen | head -n 1 | sed -nE 's|.* ([0-9]+) actions? · position ([0-9]+)/\1( .*)?$|\1 \2|p'; }
read -r first_count first_position <<<"$(followed_count)" || true
[[ -n "${first_count:-}" ]] || fail "live: no action count in the header"
[[ "$first_position" == "$first_count" ]] || fail "live: the cursor is not on the last action"
later_count="$first_count"
for _ in $(seq 1 50); do
  sleep 0.1
  read -r later_count later_position <<<"$(followed_count)" || true
  [[ -n "${later_count:-}" && "$later_count" -gt "$first_count" ]] && break
done
[[ -n "${later_count:-}" && "$later_count" -gt "$first_count" ]] \
  || fail "live: the action count stayed at $first_count"
[[ "$later_position" == "$later_count" ]] || fail "live: the cursor did not follow the end"
expect_screen "host $(hostname)"
pass "live: the header names the app and its host; the actions grow ($first_count, then $later_count) and the cursor follows the end"
tmux_ send-keys -t "$CURRENT" Left
wait_for "200 actions" 30
screen | head -n 1 | grep -qF "position 200/200" && fail "live: the cursor moved off the end followed it"
wait_for "disconnected · app counter" 10
expect_screen "counter disconnected: the app closed its recorder"
tmux_ send-keys -t "$CURRENT" End
wait_for "position 200/200"
pass "live: ← keeps the cursor where it is while all 200 actions arrive; the app's going away is shown"
wait "$live_app" || fail "live: the testbed app failed: $(cat "$WORK/live-app.err")"
grep -qF '"droppedActions":0' "$WORK/live-app.err" \
  || fail "live: the app dropped actions: $(cat "$WORK/live-app.err")"
tmux_ send-keys -t "$CURRENT" q
expect_restored live 0

# 7. Two apps at once: the second to connect does not take the view (the header counts the apps,
#    the message row says one connected); `a` shows it and `A` goes back, each app as it was
#    left; `:dispatch ACTION` sends an action into the app shown when it accepts them (the first
#    does: REWIND_LIVE_ACCEPTS_ACTIONS=1), and says why not otherwise.
multi_socket="$WORK/multi.sock"
start multi --listen "--socket '$multi_socket' --token tui-check --timeout 60"
tmux_ resize-window -t "$CURRENT" -x 160 -y 30 >/dev/null 2>&1 || true
wait_for "waiting for an app"
REWIND_LIVE="unix:$multi_socket" REWIND_LIVE_TOKEN=tui-check REWIND_LIVE_ACCEPTS_ACTIONS=1 \
  "$REWIND_TESTBED" live "$WORK/multi-1.jsonl" 1200 50 >/dev/null 2>"$WORK/multi-1.err" &
multi_1=$!
wait_for "replay · live · app counter (session "
# The session shown, and the header's position and last seq.
header_session() { screen | head -n 1 | sed -nE 's|.* app counter \(session ([0-9a-f]+),.*|\1|p'; }
header_position() { screen | head -n 1 | sed -nE 's|.* · position ([0-9]+)/([0-9]+).*|\1 \2|p'; }
session_1="$(header_session)"
REWIND_LIVE="unix:$multi_socket" REWIND_LIVE_TOKEN=tui-check \
  "$REWIND_TESTBED" live "$WORK/multi-2.jsonl" 1200 50 >/dev/null 2>"$WORK/multi-2.err" &
multi_2=$!
wait_for "app 1 of 2, 1 new (a)"
expect_screen "another app connected: counter (session "
[[ -n "$session_1" && "$(header_session)" == "$session_1" ]] \
  || fail "multi: the second app took the view ($session_1, then $(header_session))"
pass "multi: a second app joins without taking the view; the header says app 1 of 2, 1 new"

tmux_ send-keys -t "$CURRENT" a
wait_for "app 2 of 2 · "
session_2="$(header_session)"
[[ -n "$session_2" && "$session_2" != "$session_1" ]] || fail "multi: a did not show the second app"
expect_screen "viewing app 2 of 2: counter (session $session_2"
# Its cursor, moved off the end, stays there as its actions arrive.
tmux_ send-keys -t "$CURRENT" Left
sleep 0.3
read -r moved_position moved_last <<<"$(header_position)" || true
[[ -n "${moved_position:-}" && "$moved_position" -lt "$moved_last" ]] || fail "multi: ← did not move the cursor"
tmux_ send-keys -t "$CURRENT" A
wait_for "app counter (session $session_1"
expect_screen "app 1 of 2 · "
# The first app, left at its end, follows it again.
for _ in $(seq 1 30); do
  sleep 0.1
  read -r back_position back_last <<<"$(header_position)" || true
  [[ "${back_position:-}" == "${back_last:-x}" && "$back_last" -gt "$moved_last" ]] && break
done
[[ "${back_position:-}" == "${back_last:-x}" ]] || fail "multi: the first app's cursor does not follow its end"
tmux_ send-keys -t "$CURRENT" a
wait_for "app counter (session $session_2"
read -r again_position again_last <<<"$(header_position)" || true
[[ "${again_position:-}" == "$moved_position" && "$again_last" -ge "$moved_last" ]] \
  || fail "multi: the second app's cursor moved: $moved_position/$moved_last, then ${again_position:-}/${again_last:-}"
pass "multi: a and A switch apps, each keeping its cursor (the second's at $moved_position, the first's following its end)"

# The second app does not accept actions: dispatch says how to enable it.
tmux_ send-keys -t "$CURRENT" :
tmux_ send-keys -t "$CURRENT" -l 'dispatch {"increment":{}}'
tmux_ send-keys -t "$CURRENT" Enter
wait_for "error: counter does not accept actions from the viewer: give its LiveViewer acceptsActions: true"
tmux_ send-keys -t "$CURRENT" A
wait_for "app counter (session $session_1"
tmux_ send-keys -t "$CURRENT" :
tmux_ send-keys -t "$CURRENT" -l 'dispatch {"add":{"_0":1000}}'
tmux_ send-keys -t "$CURRENT" Enter
wait_for "dispatched: counter recorded it as #"
expect_screen "dispatched by the live viewer"
dispatched_seq="$(screen | sed -nE 's|.*dispatched: counter recorded it as #([0-9]+).*|\1|p' | head -n 1)"
# Any key closes the output; g goes to the action, marked as the viewer's in the list.
tmux_ send-keys -t "$CURRENT" g
tmux_ send-keys -t "$CURRENT" -l "$dispatched_seq"
tmux_ send-keys -t "$CURRENT" Enter
# The header may read that position already (the cursor follows the live app's end): wait for
# the list itself, once the keys have closed the output and gone there.
for _ in $(seq 1 100); do
  screen | grep -qE "> +$dispatched_seq .*⇐ viewer" && break
  sleep 0.1
done
screen | grep -qE "> +$dispatched_seq .*⇐ viewer" || fail "multi: action $dispatched_seq is not marked ⇐ viewer"
tmux_ send-keys -t "$CURRENT" :
tmux_ send-keys -t "$CURRENT" -l 'dispatch {"nope":1}'
tmux_ send-keys -t "$CURRENT" Enter
wait_for "error: counter refused the action: the action does not decode as CounterAction"
pass "multi: :dispatch sends an action into the app that accepts them (#$dispatched_seq, ⇐ viewer); refusals say why"

kill "$multi_1" "$multi_2" 2>/dev/null || true
wait "$multi_1" "$multi_2" 2>/dev/null || true
tmux_ send-keys -t "$CURRENT" q
expect_restored multi 0

echo "PASS: replay tui end-to-end checks"
