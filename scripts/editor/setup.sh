#!/usr/bin/env bash
# Installs the real editor the end-to-end and integration tests drive: code-server (VS Code in the browser)
# into a git-ignored cache folder. Idempotent: a stamp file records a finished install, so a second run only
# checks the prerequisites. code-server's own post-install cannot run here (it needs Node 20 exactly and
# downloads ripgrep from the internet), so its steps are replayed by hand with the native modules rebuilt
# against the local Node headers.
#
# Usage: scripts/editor/setup.sh [--force]       Env: EDITOR_CACHE_DIR (default .cache/editor)
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
NODE_GYP_VERSION=11.5.0
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE_DIR="${EDITOR_CACHE_DIR:-$ROOT/.cache/editor}"
INSTALL_DIR="$CACHE_DIR/code-server-$CODE_SERVER_VERSION"
STAMP="$INSTALL_DIR/.setup-complete"
LOG="$CACHE_DIR/setup.log"
STAMP_CONTENT="code-server $CODE_SERVER_VERSION node $(node --version) $(sha1sum "$0" | cut -c1-12)"

fail() {
  echo "editor setup failed: $*" >&2
  exit 1
}

# Runs one named step with its output in the log; on failure names the step and shows the end of the log.
step() {
  local name="$1"
  shift
  local started=$SECONDS
  printf '  %-58s' "$name"
  echo "=== $name: $*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    echo "FAILED"
    echo "--- last lines of $LOG ---" >&2
    tail -n 30 "$LOG" >&2
    fail "step \"$name\" (full log: $LOG)"
  fi
  echo "ok ($((SECONDS - started))s)"
}

# The Debian packages the editor needs. Listed in one place so .ci/run and the message below agree.
DEBIAN_PACKAGES="chromium ripgrep libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config g++ make python3"
if [[ "${1:-}" == "--print-debian-packages" ]]; then
  echo "$DEBIAN_PACKAGES"
  exit 0
fi

check_prerequisites() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  command -v rg >/dev/null || missing+=(ripgrep)
  command -v pkg-config >/dev/null || missing+=(pkg-config)
  command -v make >/dev/null || missing+=(make)
  command -v g++ >/dev/null || missing+=(g++)
  command -v python3 >/dev/null || missing+=(python3)
  if command -v pkg-config >/dev/null; then
    pkg-config --exists x11 || missing+=(libx11-dev)
    pkg-config --exists xkbfile || missing+=(libxkbfile-dev)
    pkg-config --exists libsecret-1 || missing+=(libsecret-1-dev)
    pkg-config --exists krb5-gssapi || missing+=(libkrb5-dev)
  fi
  if ((${#missing[@]})); then
    echo "missing Debian packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    fail "prerequisites"
  fi
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [[ "$major" == 20 ]] || fail "code-server $CODE_SERVER_VERSION runs on Node 20 only; this is Node $(node --version)"
}

check_prerequisites
if [[ "${1:-}" != "--force" && -f "$STAMP" && "$(cat "$STAMP")" == "$STAMP_CONTENT" ]]; then
  echo "editor: code-server $CODE_SERVER_VERSION ready in ${INSTALL_DIR#"$ROOT"/}"
  exit 0
fi

echo "editor: installing code-server $CODE_SERVER_VERSION into ${INSTALL_DIR#"$ROOT"/} (log: ${LOG#"$ROOT"/})"
rm -rf "$INSTALL_DIR"
mkdir -p "$INSTALL_DIR"
: >"$LOG"

# node-gyp must not download Node headers (no internet): point it at the headers installed with Node.
NODE_PREFIX="$(dirname "$(dirname "$(command -v node)")")"
if [[ -z "${npm_config_nodedir:-}" && -f "$NODE_PREFIX/include/node/node.h" ]]; then
  export npm_config_nodedir="$NODE_PREFIX"
fi
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# Native modules whose install script calls node-gyp directly need it on the PATH.
export PATH="$INSTALL_DIR/node_modules/.bin:$PATH"

CODE_SERVER="$INSTALL_DIR/node_modules/code-server"
VSCODE="$CODE_SERVER/lib/vscode"

step "download code-server and node-gyp (scripts skipped)" \
  bash -c "cd '$INSTALL_DIR' && echo '{\"private\":true}' >package.json && \
    npm install --ignore-scripts --no-save code-server@$CODE_SERVER_VERSION node-gyp@$NODE_GYP_VERSION"
step "install VS Code's runtime modules" \
  bash -c "cd '$VSCODE' && npm install --omit=dev --ignore-scripts"
step "rebuild VS Code's native modules against Node $(node --version)" \
  bash -c "cd '$VSCODE' && npm rebuild node-pty kerberos @parcel/watcher @vscode/spdlog native-watchdog @vscode/deviceid"
# @vscode/ripgrep's post-install downloads a binary; Debian's is the same tool.
step "use Debian's ripgrep for search" \
  bash -c "mkdir -p '$VSCODE/node_modules/@vscode/ripgrep/bin' && cp \"\$(command -v rg)\" '$VSCODE/node_modules/@vscode/ripgrep/bin/rg'"
# The links code-server's postinstall.sh makes: extensions and the workbench look inside node_modules.asar.
step "link node_modules.asar and the bin scripts" \
  bash -c "cd '$VSCODE' && rm -rf node_modules.asar && ln -s node_modules node_modules.asar && \
    cd bin/remote-cli && rm -f code-server && ln -s code-linux.sh code-server && \
    cd ../helpers && rm -f browser.sh && ln -s browser-linux.sh browser.sh"
step "install the built-in extensions' modules" \
  bash -c "cd '$VSCODE/extensions' && npm install --omit=dev --ignore-scripts"
step "rebuild argon2 (password hashing) from source" \
  bash -c "cd '$INSTALL_DIR' && npm rebuild argon2 --build-from-source"
step "smoke test: code-server --version" \
  node "$CODE_SERVER/out/node/entry.js" --config /dev/null --version

echo "$STAMP_CONTENT" >"$STAMP"
echo "editor: code-server $CODE_SERVER_VERSION installed in $((SECONDS))s"
