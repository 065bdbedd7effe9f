#!/usr/bin/env bash
# Local single-node Apache Kafka (KRaft, broker+controller in one JVM) for
# development and tests. The jars come from Maven Central via mvn (see pom.xml).
#
#   tools/kafka/kafka.sh fetch|start|stop|status|reset
#
# See tools/kafka/README.md for the environment variables.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}" 2>/dev/null || echo "${BASH_SOURCE[0]}")")" && pwd -P)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd -P)"
POM="$SCRIPT_DIR/pom.xml"
LOG4J_CONFIG="$SCRIPT_DIR/log4j.properties"

KAFKA_DIR="${KAFKA_DIR:-$REPO_ROOT/.local/kafka}"
KAFKA_LIBS="${KAFKA_LIBS:-$REPO_ROOT/.local/kafka/libs}"
KAFKA_HOST=127.0.0.1
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HEAP="${KAFKA_HEAP:--Xms256m -Xmx512m}"
# Measured on 2 cores (README): SerialGC + C1-only JIT start faster and use less
# memory than Kafka's G1 defaults, and kafkajs throughput was the same.
KAFKA_JVM_OPTS="${KAFKA_JVM_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=64m -XX:+ExitOnOutOfMemoryError -XX:-UsePerfData -Djava.awt.headless=true}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-60}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
KAFKA_MVN_ARGS="${KAFKA_MVN_ARGS:-}"
# Class-data sharing: the first broker run (per jars + JDK) dumps the classes it
# loaded into an archive next to the jars, later starts map it (~40% faster start).
KAFKA_CDS="${KAFKA_CDS:-1}"

KAFKA_VERSION="$(sed -n 's:.*<kafka\.version>\(.*\)</kafka\.version>.*:\1:p' "$POM" | head -n1)"
MARKER="$KAFKA_LIBS/.complete"
CONFIG="$KAFKA_DIR/server.properties"
DATA_DIR="$KAFKA_DIR/data"
PID_FILE="$KAFKA_DIR/kafka.pid"
CDS_DUMP="$KAFKA_DIR/cds-dump.jsa"
LOG_FILE="$KAFKA_DIR/kafka.log"
OUT_FILE="$KAFKA_DIR/kafka.out"
READY_LINE="Kafka Server started"

say() { printf 'kafka: %s\n' "$*"; }
die() { printf 'kafka: %s\n' "$*" >&2; exit 1; }

need() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' is not installed or not on PATH ($2)."
}

# Serialise start/stop/reset for one KAFKA_DIR (parallel test runners may race).
lock() {
  mkdir -p "$KAFKA_DIR"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$KAFKA_DIR/.lock"
    flock -w $((KAFKA_START_TIMEOUT + KAFKA_STOP_TIMEOUT + 30)) 9 \
      || die "timed out waiting for another kafka.sh on $KAFKA_DIR."
  fi
}

# ---------------------------------------------------------------- fetch ----

marker_value() {
  printf 'kafka_2.13 %s pom-cksum %s\n' "$KAFKA_VERSION" "$(cksum <"$POM" | cut -d' ' -f1)"
}

libs_complete() {
  [[ -f "$MARKER" && "$(cat "$MARKER")" == "$(marker_value)" ]]
}

fetch() {
  libs_complete && return 0
  need mvn "Maven 3.8+ is needed to download the Kafka jars"
  [[ -n "$KAFKA_VERSION" ]] || die "cannot read <kafka.version> from $POM."

  local parent tmp mvn_log line artifact reason
  parent="$(dirname "$KAFKA_LIBS")"
  mkdir -p "$parent"
  # one fetch at a time per libs dir; a waiting one finds the jars complete
  if command -v flock >/dev/null 2>&1; then
    exec 8>"$parent/.fetch.lock"
    flock -w 600 8 || die "timed out waiting for another fetch into $KAFKA_LIBS."
    if libs_complete; then exec 8>&-; return 0; fi
  fi
  tmp="$KAFKA_LIBS.tmp.$$"
  mvn_log="$parent/mvn-fetch.log"
  rm -rf "$tmp"
  say "fetching Kafka $KAFKA_VERSION jars with mvn into $KAFKA_LIBS ..."
  # shellcheck disable=SC2086  # KAFKA_MVN_ARGS is a list of extra mvn flags
  if ! mvn -B -q -Dstyle.color=never $KAFKA_MVN_ARGS -f "$POM" \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies -Dkafka.libs="$tmp" >"$mvn_log" 2>&1; then
    rm -rf "$tmp"
    # Typical line: "... Could not transfer artifact G:A:pom:V from/to central
    # (https://repo.maven.apache.org/maven2): repo.maven.apache.org: Name or service not known"
    line="$(grep -m1 'Could not transfer artifact' "$mvn_log" || true)"
    if [[ -n "$line" ]]; then
      artifact="$(sed -E 's/.*Could not transfer artifact ([^ ]+) .*/\1/' <<<"$line")"
      reason="$(sed -E 's/.*Could not transfer artifact [^ ]+ from\/to [^ ]+ \([^)]*\): ?//; s/ -> \[Help.*//; s/[[:space:]]+$//' <<<"$line")"
      die "could not download $artifact from Maven Central: ${reason:-unknown error}; full mvn output in $mvn_log."
    fi
    line="$(grep -m1 -E 'Cannot access|offline mode|Could not resolve|Could not find artifact|Unknown host|Connection refused|timed out' "$mvn_log" | sed -E 's/^\[ERROR\] *//' || true)"
    die "mvn could not fetch org.apache.kafka:kafka_2.13:$KAFKA_VERSION from Maven Central (https://repo.maven.apache.org/maven2)${line:+: ${line:0:300}}; full mvn output in $mvn_log."
  fi
  [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] \
    || { rm -rf "$tmp"; die "mvn finished but kafka_2.13-$KAFKA_VERSION.jar is missing; see $mvn_log."; }
  marker_value >"$tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mv -T "$tmp" "$KAFKA_LIBS" || die "could not move the fetched jars into $KAFKA_LIBS."
  exec 8>&-
  say "fetched Kafka $KAFKA_VERSION ($(find "$KAFKA_LIBS" -name '*.jar' | wc -l | tr -d ' ') jars)."
}

# ------------------------------------------------------------- helpers ----

pid_of() { [[ -f "$PID_FILE" ]] && tr -dc '0-9' <"$PID_FILE"; }

# true if $1 is a live process running kafka.Kafka (guards against pid reuse)
is_kafka_pid() {
  local pid="$1" args
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    args="$(tr '\0' ' ' <"/proc/$pid/cmdline")"
  else
    args="$(ps -p "$pid" -o args= 2>/dev/null || true)"
  fi
  [[ "$args" == *kafka.Kafka* ]]
}

running() {
  local pid
  pid="$(pid_of || true)"
  is_kafka_pid "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$KAFKA_HOST/$1") 2>/dev/null; }

who_listens() {
  command -v ss >/dev/null 2>&1 || return 0
  ss -ltnpH "sport = :$1" 2>/dev/null | grep -o 'users:(.*)' | head -n1 || true
}

# port the running broker of this KAFKA_DIR listens on (from its config)
configured_port() {
  local p
  p="$(sed -n 's|^listeners=PLAINTEXT://[^:]*:\([0-9]*\).*|\1|p' "$CONFIG" 2>/dev/null | head -n1 || true)"
  printf '%s' "${p:-$KAFKA_PORT}"
}

# Kafka cluster ids are 16 random bytes, base64url without padding; never start with '-'.
new_cluster_id() {
  local id
  while :; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    [[ "$id" != -* && "$id" != "AAAAAAAAAAAAAAAAAAAAAA" && "$id" != "AAAAAAAAAAAAAAAAAAAAAQ" ]] && break
  done
  printf '%s' "$id"
}

# The CDS archive is only valid for these jars and this JDK build.
cds_archive() {
  local java_bin stamp
  java_bin="$(readlink -f "$(command -v "$JAVA")" 2>/dev/null || command -v "$JAVA")"
  stamp="$(stat -c %Y "$java_bin" 2>/dev/null || stat -f %m "$java_bin" 2>/dev/null || echo 0)"
  printf '%s/kafka-%s.jsa' "$KAFKA_LIBS" "$(printf '%s %s' "$java_bin" "$stamp" | cksum | cut -d' ' -f1)"
}

# JVM flags for class-data sharing: use the archive if there is one, else have
# this run write one at exit (stop() then installs it).
cds_opts() {
  [[ "$KAFKA_CDS" == 1 ]] || return 0
  local archive
  archive="$(cds_archive)"
  if [[ -s "$archive" ]]; then
    printf '%s\n' "-XX:SharedArchiveFile=$archive"
  elif [[ "${1:-}" == dump ]]; then
    printf '%s\n' "-XX:ArchiveClassesAtExit=$CDS_DUMP" "-Xlog:cds=off" "-Xlog:cds+dynamic=off"
  fi
}

install_cds_dump() {
  [[ -s "$CDS_DUMP" && "$KAFKA_CDS" == 1 ]] || { rm -f "$CDS_DUMP"; return 0; }
  local archive
  archive="$(cds_archive)"
  if [[ ! -s "$archive" ]] && cp "$CDS_DUMP" "$archive.tmp.$$" 2>/dev/null; then
    mv -f "$archive.tmp.$$" "$archive"
  fi
  rm -f "$CDS_DUMP" "$archive.tmp.$$"
}

write_config() {
  cat >"$CONFIG" <<EOF
# Written by tools/kafka/kafka.sh on every start; edits here are overwritten.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DATA_DIR

auto.create.topics.enable=false
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0

# small-machine sizing: the log cleaner's dedupe buffer is allocated on the heap
# at startup (default 128 MiB); 16 MiB is plenty for a dev broker.
log.cleaner.dedupe.buffer.size=16777216
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
EOF
}

format_storage() {
  [[ -f "$DATA_DIR/meta.properties" ]] && return 0
  mkdir -p "$DATA_DIR"
  local out cds=()
  mapfile -t cds < <(cds_opts)
  # shellcheck disable=SC2086
  if ! out="$("$JAVA" $KAFKA_JVM_OPTS -Xmx256m ${cds[@]+"${cds[@]}"} \
      -Dlog4j.configuration="file:$LOG4J_CONFIG" -Dkafka.log.file="$KAFKA_DIR/storage-format.log" \
      -cp "$KAFKA_LIBS/*" \
      kafka.tools.StorageTool format --ignore-formatted -t "$(new_cluster_id)" -c "$CONFIG" 2>&1)"; then
    printf '%s\n' "$out" >&2
    die "formatting the storage in $DATA_DIR failed (kafka.tools.StorageTool format)."
  fi
}

show_logs() {
  if [[ -s "$OUT_FILE" ]]; then
    printf -- '--- %s (JVM stdout/stderr) ---\n' "$OUT_FILE" >&2
    tail -n 20 "$OUT_FILE" >&2
  fi
  if [[ -s "$LOG_FILE" ]]; then
    printf -- '--- errors in %s ---\n' "$LOG_FILE" >&2
    grep -A3 -E '^\[[^]]*\] (ERROR|FATAL)' "$LOG_FILE" | tail -n 12 | cut -c1-300 >&2 || tail -n 10 "$LOG_FILE" >&2
  fi
}

# ------------------------------------------------------------ commands ----

start() {
  need "$JAVA" "Java 17 runs the broker; set JAVA_HOME or PATH"
  fetch
  lock
  local pid who cds=()
  if running; then
    pid="$(pid_of)"
    say "already running (pid $pid) on $KAFKA_HOST:$(configured_port)."
    return 0
  fi
  rm -f "$PID_FILE"
  [[ "$KAFKA_PORT" != "$KAFKA_CONTROLLER_PORT" ]] \
    || die "KAFKA_PORT and KAFKA_CONTROLLER_PORT are both $KAFKA_PORT; they must differ."
  for port in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    if port_open "$port"; then
      who="$(who_listens "$port")"
      die "port $port on $KAFKA_HOST is already in use by another process${who:+ ($who)}; stop it or set KAFKA_PORT / KAFKA_CONTROLLER_PORT (and KAFKA_DIR) to run a separate broker."
    fi
  done

  write_config
  format_storage
  rm -f "$CDS_DUMP"
  mapfile -t cds < <(cds_opts dump)

  # one previous run's log is kept as kafka.prev.log
  [[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$KAFKA_DIR/kafka.prev.log"
  rm -f "$LOG_FILE".[0-9]*
  say "starting Kafka $KAFKA_VERSION (KRaft) in $KAFKA_DIR, log: $LOG_FILE"

  # setsid: own session, so a Ctrl-C or a killed process group of the caller
  # does not take the broker down. fd 9 (the lock) is not inherited.
  # shellcheck disable=SC2086
  setsid nohup bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" \
    "$JAVA" $KAFKA_HEAP $KAFKA_JVM_OPTS ${cds[@]+"${cds[@]}"} \
    -Dlog4j.configuration="file:$LOG4J_CONFIG" -Dkafka.log.file="$LOG_FILE" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$CONFIG" \
    </dev/null >"$OUT_FILE" 2>&1 8>&- 9>&- &

  local deadline=$((SECONDS + KAFKA_START_TIMEOUT))
  while :; do
    pid="$(pid_of || true)"
    if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE" "$CDS_DUMP"
      # a bad class-data archive must not break the next start
      if [[ "${cds[*]}" == *SharedArchiveFile* ]] && grep -qiE 'shared|archive|cds|hs_err|SIGSEGV|SIGBUS' "$OUT_FILE"; then
        rm -f "$(cds_archive)"
      fi
      show_logs
      die "the broker exited during startup; see $LOG_FILE and $OUT_FILE."
    fi
    if [[ -n "$pid" ]] && grep -q "$READY_LINE" "$LOG_FILE" 2>/dev/null && port_open "$KAFKA_PORT"; then
      break
    fi
    if ((SECONDS >= deadline)); then
      show_logs
      die "the broker (pid ${pid:-?}) was not ready after ${KAFKA_START_TIMEOUT}s; it is left running, see $LOG_FILE (stop it with: $0 stop)."
    fi
    sleep 0.1
  done
  say "ready on $KAFKA_HOST:$KAFKA_PORT"
}

stop() {
  lock
  local pid killed=0
  pid="$(pid_of || true)"
  if ! is_kafka_pid "$pid"; then
    rm -f "$PID_FILE"
    say "not running."
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + KAFKA_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    say "pid $pid did not stop within ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL."
    kill -KILL "$pid" 2>/dev/null || true
    killed=1
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$PID_FILE"
  if ((killed)); then rm -f "$CDS_DUMP"; else install_cds_dump; fi
  say "stopped (pid $pid)."
}

status() {
  if running; then
    say "running (pid $(pid_of)) on $KAFKA_HOST:$(configured_port), dir $KAFKA_DIR"
    return 0
  fi
  say "not running (dir $KAFKA_DIR)"
  return 1
}

reset() {
  stop
  rm -rf "$DATA_DIR"
  say "deleted $DATA_DIR; the next start formats a fresh cluster."
}

usage() {
  cat <<EOF
usage: $0 fetch|start|stop|status|reset

  fetch   download the Kafka $KAFKA_VERSION jars with mvn into $KAFKA_LIBS (once)
  start   fetch if needed, format storage if new, start the broker, wait until ready
  stop    SIGTERM the broker (SIGKILL after ${KAFKA_STOP_TIMEOUT}s)
  status  say whether it runs (exit 0) or not (exit 1)
  reset   stop and delete $DATA_DIR

env: KAFKA_DIR KAFKA_PORT KAFKA_CONTROLLER_PORT KAFKA_HEAP KAFKA_JVM_OPTS KAFKA_CDS
     KAFKA_LIBS KAFKA_START_TIMEOUT KAFKA_STOP_TIMEOUT KAFKA_MVN_ARGS
EOF
}

case "${1:-}" in
  fetch) fetch; libs_complete && say "jars for Kafka $KAFKA_VERSION are in $KAFKA_LIBS." ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  reset) reset ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
