#!/usr/bin/env bash
# Browser test of `replay export --html`: exports the bundled todo logs, opens the pages in
# headless Chromium, and checks the DOM its script built against what `replay` itself prints
# (the number of actions listed, with and without the type filter and the search box, the state
# and the diff at chosen positions, the cut-off mark); with node, also checks the page's own
# model against `replay` at every position (Scripts/browser-check.js).
# Also saves the screenshots of docs/export.md into docs/images/ (installing the CJK and emoji
# fonts the fixtures' titles need, as root with apt-get, when they are missing).
#
#   Scripts/browser-test.sh               build replay, then test
#   SCRATCH_PATH=.build-x Scripts/browser-test.sh
#   NO_SCREENSHOTS=1 Scripts/browser-test.sh
#
# Installs Debian's chromium when it is missing and this runs as root (apt-get); when no
# Chromium can be had, prints "SKIPPED: …" and exits 0. Exits 1 when any check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${SCRATCH_PATH:-.build}"
session_log=Fixtures/todo-session.jsonl
crash_log=Fixtures/todo-crash.jsonl

find_chromium() {
  local name
  for name in chromium chromium-browser google-chrome-stable google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}

if ! browser=$(find_chromium); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing chromium (apt-get)"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
      >/tmp/rewind-browser-test-apt.log 2>&1; then
      tail -5 /tmp/rewind-browser-test-apt.log || true
    fi
  fi
  if ! browser=$(find_chromium); then
    echo "SKIPPED: browser test: Chromium is not installed and could not be installed (try: apt-get install chromium)"
    exit 0
  fi
fi
echo "== browser: $("$browser" --version 2>/dev/null | tail -1)"

echo "== build replay"
swift build --scratch-path "$scratch" --product replay 2>&1 | tail -1
replay="$scratch/debug/replay"

work=$(mktemp -d "${TMPDIR:-/tmp}/rewind-browser-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
profile="$work/profile"

# Runs headless Chromium on FILE (with an optional #fragment) and prints its DOM.
render_dom() {
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run \
    --user-data-dir="$profile" --virtual-time-budget=5000 --dump-dom "file://$1" 2>/dev/null
}

screenshot() {
  local out=$1 url=$2
  shift 2
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars \
    --user-data-dir="$profile" --virtual-time-budget=5000 --window-size=1280,800 \
    --screenshot="$out" "$@" "file://$url" >/dev/null 2>&1
  echo "   saved $out ($(wc -c <"$out") bytes)"
}

failures=0
check() {
  if python3 Scripts/browser-check.py "$@"; then :; else failures=$((failures + 1)); fi
}

echo "== export"
"$replay" export "$session_log" --html "$work/session.html"
"$replay" export "$crash_log" --html "$work/crash.html"
actions=$("$replay" info "$session_log" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["actions"])')

for position in 120 113 116 117; do
  echo "== $session_log at position $position"
  render_dom "$work/session.html#position=$position" >"$work/dom-$position.html"
  next_id=$("$replay" state "$session_log" --at "$position" --path nextID --json)
  filter=$("$replay" state "$session_log" --at "$position" --path filter --json)
  "$replay" "$session_log" -c "goto $position" -c diff | sed -n '/^(replay) diff$/,$p' | tail -n +2 \
    >"$work/diff-$position.txt"
  check "$work/dom-$position.html" --position "$position" --actions "$actions" \
    --state "/nextID=$next_id" --state "/filter=$filter" --diff-file "$work/diff-$position.txt" \
    --state-title "State at position $position"
done

echo "== $session_log filtered by type (#type=setFilter)"
render_dom "$work/session.html#position=120&type=setFilter" >"$work/dom-type.html"
check "$work/dom-type.html" --position 120 \
  --actions "$("$replay" actions "$session_log" --type setFilter | wc -l)"

echo "== $session_log filtered by text (#search=dune)"
render_dom "$work/session.html#position=123&search=dune" >"$work/dom-search.html"
check "$work/dom-search.html" --position 123 \
  --actions "$("$replay" actions "$session_log" --json | grep -ci dune)"

origins_log=Fixtures/todo-origins.jsonl
"$replay" export "$origins_log" --html "$work/origins.html"
echo "== $origins_log: where action 39 came from, and a search of the state (#find=Call mum)"
render_dom "$work/origins.html#position=39&find=Call%20mum" >"$work/dom-origins.html"
matches=$("$replay" "$origins_log" --json -c "goto 39" -c "search Call mum" | tail -1 \
  | python3 -c 'import json,sys; print(",".join(m["path"] for m in json.load(sys.stdin)["matches"]))')
types=$("$replay" profile "$origins_log" --json --repeat 1 \
  | python3 -c 'import json,sys; print(",".join(t["type"] for t in json.load(sys.stdin)["types"]))')
check "$work/dom-origins.html" --position 39 --site "RewindExamples/TodoScreen.swift:58" \
  --caused-by 38 --state-matches "$matches" --cost-types "$types"

echo "== $session_log: the history of a value (#history=/todos/2/title at position 30)"
render_dom "$work/session.html#position=30&history=/todos/2/title" >"$work/dom-history.html"
id=$("$replay" state "$session_log" --at 30 --path "todos[2].id" --json)
seqs=$("$replay" history "$session_log" "todos[id=$id].title" --json \
  | python3 -c 'import json,sys; print(",".join(str(c["action"]["seq"]) for c in json.load(sys.stdin)["changes"]))')
check "$work/dom-history.html" --position 30 --history "$seqs"

if command -v node >/dev/null 2>&1; then
  echo "== the page's own model at every position of $session_log (node)"
  last=$("$replay" info "$session_log" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lastSeq"])')
  for position in $(seq 0 "$last"); do
    "$replay" state "$session_log" --at "$position" --json
  done >"$work/states.txt"
  commands=()
  for position in $(seq 1 "$last"); do commands+=(-c "goto $position" -c diff); done
  "$replay" "$session_log" "${commands[@]}" | awk '
    /^\(replay\) goto / { if (capturing) print "@@"; capturing = 0; next }
    /^\(replay\) diff$/ { capturing = 1; next }
    capturing { print }
    END { if (capturing) print "@@" }' >"$work/diffs.txt"
  if node Scripts/browser-check.js "$work/session.html" "$work/states.txt" "$work/diffs.txt"; then :; else
    failures=$((failures + 1))
  fi
else
  echo "== (node is not installed: the check of the page's model at every position is left out)"
fi

echo "== $crash_log at its last action (the app stopped in it)"
crash_last=$("$replay" info "$crash_log" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["lastSeq"])')
render_dom "$work/crash.html#position=$crash_last" >"$work/dom-crash.html"
before=$((crash_last - 1))
check "$work/dom-crash.html" --position "$crash_last" --actions "$crash_last" --stopped "$crash_last" \
  --crash-message "Index out of range" --crash-file "Sources/RewindExamples/Todo.swift" \
  --state "/nextID=$("$replay" state "$crash_log" --at "$before" --path nextID --json)" \
  --state-title "State before action $crash_last"

if [ -z "${NO_SCREENSHOTS:-}" ]; then
  echo "== screenshots"
  # The fixtures' titles have Japanese text and emoji: without these fonts the screenshots show
  # empty boxes in their place.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
    && ! fc-list 2>/dev/null | grep -qi "Noto Color Emoji"; then
    echo "== installing fonts-noto-cjk and fonts-noto-color-emoji (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk fonts-noto-color-emoji \
      >/tmp/rewind-browser-test-fonts.log 2>&1 || tail -5 /tmp/rewind-browser-test-fonts.log
  fi
  mkdir -p docs/images
  screenshot docs/images/html-timeline.png "$work/session.html#position=120"
  screenshot docs/images/html-timeline-dark.png "$work/session.html#position=113" \
    --force-dark-mode --blink-settings=preferredColorScheme=0
  screenshot docs/images/html-crash.png "$work/crash.html#position=$crash_last"
  screenshot docs/images/html-why.png "$work/origins.html#position=39&find=Call%20mum&history=/todos/2/title" \
    --window-size=1280,1100
fi

if [ "$failures" -gt 0 ]; then
  echo "browser test: FAILED ($failures page$([ "$failures" = 1 ] || echo s) with failed checks)"
  exit 1
fi
echo "browser test: passed"
