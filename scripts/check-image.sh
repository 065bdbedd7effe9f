#!/usr/bin/env bash
# Checks the production image's layout without a Docker engine: stages exactly what the Dockerfile's
# last stage holds (production dependencies, dist/apps, the entrypoint) in a temporary folder, then
# runs every service through the entrypoint — migrate, await-schema, start, probes, SIGTERM — against the given
# DATABASE_URL and KAFKA_BROKERS (the integration tests' servers when run from `npm test`). On the image's Node.js
# with the ConfigMap's NODE_OPTIONS it also runs the log correlation tests (from the repository's dev dependencies),
# since those options change how AsyncLocalStorage carries a request's id.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${DATABASE_URL:?DATABASE_URL is required}" "${KAFKA_BROKERS:?KAFKA_BROKERS is required}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp package.json package-lock.json "$stage/"
(cd "$stage" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
# Every package patches/ changes, as the Dockerfile takes it: patched by the install, which the runtime stage does
# not run (patches/<scope>+<name>+<version>.patch).
for patch in patches/*.patch; do
  package=$(basename "$patch" .patch); package=${package%+*}; package=${package//+//}
  rm -rf "$stage/node_modules/$package" && cp -r "node_modules/$package" "$stage/node_modules/$package"
done
mkdir -p "$stage/apps"
cp -r dist/apps/. "$stage/apps/"
cp deploy/docker/source-maps.cjs "$stage/apps/"
cp deploy/docker/entrypoint.sh "$stage/owd"
export APPS_DIR="$stage/apps" ADMIN_TOKEN=$(node -e 'console.log("x".repeat(40))')
export SECRET_ENCRYPTION_KEY=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64"))')
export SMTP_URL=smtp://127.0.0.1:1 NOTICE_FROM=notices@example.test NOTICE_SCHEDULE=off LOG_LEVEL=warn
export KAFKA_TOPIC_PREFIX="image-check-$$."
tsx tools/kafka/create-topics.ts >/dev/null
# A database of its own, dropped at the end.
db="owd_image_check_$$"
export ADMIN_DATABASE_URL=$DATABASE_URL
sql() { node -e 'const { Client } = require("pg"); const c = new Client({ connectionString: process.env.ADMIN_DATABASE_URL }); c.connect().then(() => c.query(process.argv[1])).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });' "$1"; }
sql "CREATE DATABASE $db"
trap 'sql "DROP DATABASE IF EXISTS $db WITH (FORCE)"; rm -rf "$stage"' EXIT
export DATABASE_URL="$(node -e 'const u = new URL(process.env.ADMIN_DATABASE_URL); u.pathname = "/" + process.argv[1]; console.log(u.toString())' "$db")"
if sh "$stage/owd" no-such-service 2>/dev/null; then echo "entrypoint accepted an unknown service" >&2; exit 1; fi
echo "    Node.js $(node --version)"
# The entrypoint's preload: stack traces through the services' own source maps, no package's (Node.js 22.14+).
maps=$(node --require "$stage/apps/source-maps.cjs" -p 'const m = require("node:module"); m.getSourceMapsSupport ? JSON.stringify(m.getSourceMapsSupport()) : "every map (Node.js 20)"')
case "$maps" in
  *'"enabled":true'*'"nodeModules":false'*|"every map (Node.js 20)") echo "    source maps: $maps" ;;
  *) echo "source-maps.cjs did not turn source maps on for the services' own code only: $maps" >&2; exit 1 ;;
esac
# The bundles are ASCII (AsciiOnlyPlugin), so V8 keeps their source one byte per character.
for bundle in "$stage"/apps/*/main.js; do
  if LC_ALL=C grep -q $'[\x80-\xff]' "$bundle"; then echo "$bundle holds characters outside ASCII (tools/webpack/ascii-only-plugin.js)" >&2; exit 1; fi
done
echo "    bundles: ASCII only"
# The pods' runtime settings (deploy/base/config.yaml), so the RSS printed below is a pod's.
config() { sed -n "s/^  $1: \"\(.*\)\"$/\1/p" deploy/base/config.yaml; }
# A Deployment's own V8 flags (SERVICE_V8_FLAGS in deploy/base/<service>.yaml), put after the ConfigMap's.
service_flags() { sed -n "s/^ *- { name: SERVICE_V8_FLAGS, value: \"\(.*\)\" }$/\1/p" "deploy/base/$1.yaml"; }
pod_node_options=$(config NODE_OPTIONS) pod_v8_flags=$(config V8_FLAGS) pod_malloc_arenas=$(config MALLOC_ARENA_MAX) pod_mmap_threshold=$(config MALLOC_MMAP_THRESHOLD_)
# request_id on every line of a request rides in an AsyncLocalStorage, which the ConfigMap's NODE_OPTIONS put on
# AsyncContextFrame: the log correlation tests again on this Node.js with those options (jest's own heap above the pods' cap).
NODE_OPTIONS="$pod_node_options --max-old-space-size=2048" node node_modules/jest/bin/jest.js --config jest.unit.config.cjs --ci \
  libs/data-access/platform/src/lib/log-correlation.spec.ts >"$stage/log-correlation.log" 2>&1 \
  || { echo "log correlation fails on Node.js $(node --version) with the pods' NODE_OPTIONS ($pod_node_options):"; tail -40 "$stage/log-correlation.log"; exit 1; }
echo "    log correlation with the pods' NODE_OPTIONS ($pod_node_options): $(grep -oE 'Tests: +[0-9]+ passed' "$stage/log-correlation.log" | tr -s ' ')"
port=39100
for s in manifest-api payload-builder dispatcher retry-scheduler notifier; do
  port=$((port + 1))
  (cd "$stage" && sh ./owd "$s" migrate >/dev/null)
  # The pods' init container: returns at once on a current schema.
  (cd "$stage" && PORT=$port sh ./owd "$s" await-schema >/dev/null)
  own_flags=$(service_flags "$s")
  # Written another way than the one-line form above, the value would be missed and the service run without it.
  if [ -z "$own_flags" ] && grep -q SERVICE_V8_FLAGS "deploy/base/$s.yaml"; then
    echo "deploy/base/$s.yaml sets SERVICE_V8_FLAGS in a form this check does not read: - { name: SERVICE_V8_FLAGS, value: \"…\" }" >&2; exit 1
  fi
  (cd "$stage" && PORT=$port NODE_OPTIONS=$pod_node_options V8_FLAGS=$pod_v8_flags SERVICE_V8_FLAGS=$own_flags MALLOC_ARENA_MAX=$pod_malloc_arenas MALLOC_MMAP_THRESHOLD_=$pod_mmap_threshold exec sh ./owd "$s") >"$stage/$s.log" 2>&1 &
  pid=$!
  ok=
  for _ in $(seq 1 240); do
    if curl -fsS "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1; then ok=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  [ -n "$ok" ] || { echo "$s did not become ready from the image layout:"; tail -20 "$stage/$s.log"; kill "$pid" 2>/dev/null; exit 1; }
  # The ConfigMap's V8 flags and the Deployment's own are on node's command line (the entrypoint's word splitting),
  # and node took them (it refuses an option it does not know, and the service would not have become ready).
  for flag in $pod_v8_flags $own_flags; do
    tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF -- "$flag" || { echo "$s: $flag is not on node's command line"; kill "$pid"; exit 1; }
  done
  for probe in /health/live /health/startup /health; do
    curl -fsS "http://127.0.0.1:$port$probe" >/dev/null || { echo "$s: $probe failed"; kill "$pid"; exit 1; }
  done
  if [ "$s" = manifest-api ]; then
    # The web console ships in the image: its page and its bundle are served.
    curl -fsS "http://127.0.0.1:$port/console/" | grep -q '<script' \
      || { echo "manifest-api does not serve the console from the image layout"; kill "$pid"; exit 1; }
  fi
  # Memory as a pod starts (informational: settings as in deploy/base/config.yaml when run from npm test).
  rss=$(awk '/^VmRSS/ { printf "%d MiB", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || true)
  if [ "$s" = manifest-api ]; then
    # The OpenAPI document ships beside the bundle and is served as docs/openapi.json holds it, with Swagger UI,
    # by @nestjs/swagger loaded with this first request (after the RSS above: a pod holds it only once asked).
    curl -fsS "http://127.0.0.1:$port/api/docs-json" | node -e '
      const served = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const documented = JSON.parse(require("fs").readFileSync("docs/openapi.json", "utf8"));
      process.exit(require("util").isDeepStrictEqual(served, documented) ? 0 : 1);' \
      && curl -fsS "http://127.0.0.1:$port/api/docs" | grep -q 'swagger-ui' \
      || { echo "manifest-api does not serve docs/openapi.json and Swagger UI from the image layout"; kill "$pid"; exit 1; }
  fi
  kill -TERM "$pid"
  wait "$pid" && code=0 || code=$?
  # NestJS re-raises SIGTERM after its shutdown hooks ran, so 143 (128 + SIGTERM) is a clean stop too.
  [ "$code" = 0 ] || [ "$code" = 143 ] || { echo "$s exited with $code on SIGTERM"; tail -20 "$stage/$s.log"; exit 1; }
  echo "    $s: migrate, await-schema, start, /health/ready, live, startup, /health$([ "$s" = manifest-api ] && printf ', /console/, /api/docs'), SIGTERM → clean exit (production dependencies only; V8 flags: ${pod_v8_flags:-none}${own_flags:+ $own_flags})${rss:+; RSS when ready $rss}"
done
