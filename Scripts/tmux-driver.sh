# Shared by the scripts that drive `replay tui` in tmux (Scripts/tui-check.sh,
# Scripts/tui-memory-check.sh); sourced, not run. Gives a private tmux server and a scratch
# folder (both gone on exit), the window being driven ($CURRENT), and checks of its screen.
#
# Sets: SOCKET, WORK, CURRENT. Defines: tmux_, fail, pass, screen, wait_for, expect_screen.

SOCKET="rewind-$(basename "$0" .sh)-$$"
WORK="$(mktemp -d)"
tmux_() { tmux -L "$SOCKET" "$@"; }
cleanup() {
  tmux_ kill-server >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

CURRENT=""
fail() {
  echo "FAIL: $*"
  if [[ -n "$CURRENT" ]]; then
    echo "---- screen ----"
    tmux_ capture-pane -p -t "$CURRENT" 2>/dev/null || true
    echo "----------------"
  fi
  exit 1
}
pass() { echo "ok   $*"; }

screen() { tmux_ capture-pane -p -t "$CURRENT"; }

# Waits for the screen to show $1: up to $2 seconds (10 when not given).
wait_for() {
  local tenths=$(( ${2:-10} * 10 ))
  for _ in $(seq 1 "$tenths"); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "the screen never showed: $1"
}

expect_screen() {
  screen | grep -qF -- "$1" || fail "the screen does not show: $1"
}
