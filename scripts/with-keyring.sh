#!/usr/bin/env bash
# Runs a command in a private D-Bus session with an unlocked gnome-keyring, so keytar has a Secret Service on headless Linux (CI).
set -euo pipefail
if [ -z "${LEDGERLINE_KEYRING_SESSION:-}" ]; then
  exec env LEDGERLINE_KEYRING_SESSION=1 dbus-run-session -- "$0" "$@"
fi
# A throwaway keyring folder: tests never touch the user's real login keyring.
XDG_DATA_HOME=$(mktemp -d /tmp/ledgerline-keyring.XXXXXX)
export XDG_DATA_HOME
# --unlock reads the new keyring's password from stdin and prints the variables clients need.
eval "$(printf '%s' 'ledgerline-test-keyring' | gnome-keyring-daemon --unlock --components=secrets | sed 's/^/export /')"
exec "$@"
