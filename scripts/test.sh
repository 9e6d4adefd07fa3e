#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as the README says:
#   bash scripts/test.sh [pytest arguments…]
# Creates a virtual environment of its own, .venv-test (never .venv: a normal install there is left
# as it is, not made editable), with Python 3.12 or 3.11 (durable_rules does not import on 3.13);
# installs bridgelaw into it editable with its test tools; installs Debian's chromium and
# chromium-driver for the browser tests when running as root and they are missing (elsewhere the
# browser tests skip); then runs pytest, on as many worker processes as there are cores (at most 4).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-test

if [ ! -x "$VENV/bin/python" ]; then
    python=""
    for candidate in python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 12))' 2>/dev/null; then
            python=$candidate
            break
        fi
    done
    if [ -z "$python" ]; then
        echo "scripts/test.sh: needs Python 3.11 or 3.12 (python3.12, python3.11 or python3 on PATH)" >&2
        exit 2
    fi
    "$python" -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check -e '.[test]'

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "scripts/test.sh: installing chromium and chromium-driver for the browser tests" >&2
        log=$(mktemp)
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; } >"$log" 2>&1; then
            tail -20 "$log" >&2
            echo "scripts/test.sh: could not install chromium; the browser tests will skip (and fail on CI)" >&2
        fi
        rm -f "$log"
    else
        echo "scripts/test.sh: no /usr/bin/chromium (not root: not installing it); the browser tests will skip" >&2
    fi
fi

# Two or more cores: the tests spread over up to four worker processes (pytest-xdist); one: none.
workers=$(nproc 2>/dev/null || echo 1)
if [ "$workers" -gt 4 ]; then workers=4; fi
if [ "$workers" -ge 2 ]; then
    exec "$VENV/bin/python" -m pytest -q -n "$workers" "$@"
fi
exec "$VENV/bin/python" -m pytest -q "$@"
