#!/bin/sh
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring answering as the
# Secret Service, so keychain code can be exercised without touching the user's real keyring:
# HOME and the XDG directories point into a temporary directory removed afterwards.
#
#   scripts/with-keyring.sh node script.mjs
#
# Needs dbus-run-session (package dbus) and gnome-keyring-daemon (package gnome-keyring).
set -eu

if [ "${NYZHI_IN_KEYRING_SESSION:-}" = 1 ]; then
  # Inside the session: start and unlock a fresh login keyring, then run the command.
  printf '%s' nyzhi-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keyring.sh: $tool is not installed" >&2
    exit 127
  fi
done

sandbox=$(mktemp -d "${TMPDIR:-/tmp}/nyzhi-keyring.XXXXXX")
trap 'rm -rf "$sandbox"' EXIT INT TERM
mkdir -m 700 "$sandbox/runtime"
status=0
NYZHI_IN_KEYRING_SESSION=1 \
  HOME="$sandbox" \
  XDG_DATA_HOME="$sandbox/data" \
  XDG_CONFIG_HOME="$sandbox/config" \
  XDG_RUNTIME_DIR="$sandbox/runtime" \
  dbus-run-session -- "$0" "$@" || status=$?
exit "$status"
