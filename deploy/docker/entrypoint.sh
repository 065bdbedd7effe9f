#!/bin/sh
# Starts one service of the image: owd <service> [migrate|…]
set -eu
APPS_DIR=${APPS_DIR:-/app/apps}
service=${1:-}
case "$service" in
  manifest-api|payload-builder|dispatcher|retry-scheduler|notifier) shift ;;
  *) echo "usage: owd manifest-api|payload-builder|dispatcher|retry-scheduler|notifier [migrate]" >&2; exit 2 ;;
esac
# source-maps.cjs: stack traces through the service's own source map only (not every package's).
exec node --require "$APPS_DIR/source-maps.cjs" "$APPS_DIR/$service/main.js" "$@"
