#!/bin/sh
# The one entry point on a fresh machine: `sh scripts/run.sh start` or `sh scripts/run.sh test`.
# It fetches Node 24 and pnpm when needed (scripts/bootstrap.sh), installs the workspace from the
# lockfile, then runs the root package.json script of the same name.
set -e
PORTICO_ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
cd "$PORTICO_ROOT"
. "$PORTICO_ROOT/scripts/bootstrap.sh"
set -e
echo "portico: node $(node --version), pnpm $(pnpm --version)"
pnpm install --frozen-lockfile --reporter=append-only
cmd=${1:-test}
[ $# -gt 0 ] && shift
exec pnpm run "$cmd" "$@"
