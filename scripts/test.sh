#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then run it.
# Creates .venv, installs the project with its test extras, installs Debian's Chromium for the
# report's browser tests and Debian's kubectl (package kubernetes-client) for the serve tests when
# they are missing (needs root or sudo), and runs pytest on 2 workers.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# The serve tests run a real kubectl against `kda serve`: install Debian's kubernetes-client
# package when none is on PATH (Ubuntu: the kubectl snap is the alternative).
if ! command -v kubectl >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  { $SUDO apt-get update -qq >/dev/null &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq kubernetes-client >/dev/null; } ||
    echo "could not install kubectl (package kubernetes-client): the tests that need it are skipped" >&2
fi

exec .venv/bin/python -m pytest -n 2 "$@"
