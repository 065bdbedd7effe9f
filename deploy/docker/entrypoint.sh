#!/bin/sh
# Starts one service of the image: owd <service> [migrate|…]
set -eu
APPS_DIR=${APPS_DIR:-/app/apps}
service=${1:-}
case "$service" in
  manifest-api|payload-builder|dispatcher|retry-scheduler|notifier) shift ;;
  *) echo "usage: owd manifest-api|payload-builder|dispatcher|retry-scheduler|notifier [migrate]" >&2; exit 2 ;;
esac
# V8_FLAGS (the ConfigMap's, every service) and SERVICE_V8_FLAGS (one Deployment's own): V8 options, one word each,
# so split on spaces on purpose. A flag given twice takes its later value, and node reads NODE_OPTIONS before its
# command line, so where they overlap the Deployment's own value wins.
# source-maps.cjs: stack traces through the service's own source map only (not every package's).
# shellcheck disable=SC2086
exec node ${V8_FLAGS:-} ${SERVICE_V8_FLAGS:-} --require "$APPS_DIR/source-maps.cjs" "$APPS_DIR/$service/main.js" "$@"
