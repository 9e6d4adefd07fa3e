#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as the README says:
#   bash scripts/test.sh [pytest arguments…]
# Creates .venv if missing, installs bridgelaw with its test tools, installs Debian's chromium and
# chromium-driver for the browser tests when running as root and they are missing (elsewhere the
# browser tests skip), then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install --quiet --disable-pip-version-check -e '.[test]'

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

exec .venv/bin/python -m pytest -q "$@"
