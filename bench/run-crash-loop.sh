#!/usr/bin/env bash
# kill -9 crash loop: a modmq broker (the built distribution) is killed with SIGKILL and restarted on
# the same store, over and over, under a stock-client (rocketmq-client 5.3.3) sync-send load, with
# flushDiskType=SYNC_FLUSH, once per storage backend.
#
#   bench/run-crash-loop.sh                              # 100 cycles each for mmap and direct
#   BENCH_CYCLES=20 BENCH_BACKENDS=direct bench/run-crash-loop.sh
#
# Per backend: a name server (bin/mqnamesrv) and a fresh store in a temp folder, then `mq-bench
# crashloop`, which starts the broker (bin/mqbroker) as its own child, waits until it serves, lets it
# run 0.3-1.5 s, SIGKILLs it and starts it again, BENCH_CYCLES times; then it reads the topic back and
# prints one key=value line: acknowledged, lost (acknowledged but not stored: must be 0), duplicates,
# and per restart the time from the launch to listening (listen_ms_*) and to the first SEND_OK of a
# send started after the launch (serve_ms_*). Exit code 1 when a message was lost or a restart did not
# serve.
#
# Needs: the distribution and the bench jar built (mvn -B -pl mq-distribution,mq-bench -am package
# -DskipTests), python3 (free ports), Linux. Before the loop the broker is started and stopped once
# cleanly (BENCH_PRIME=0 skips it), so that its class-data archive exists, as after any clean stop.
# Only processes this script (or mq-bench) started are signalled, by PID.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)

CYCLES=${BENCH_CYCLES:-100}
BACKENDS=${BENCH_BACKENDS:-mmap direct}
THREADS=${BENCH_THREADS:-4}
SIZE=${BENCH_SIZE:-1024}
SEGMENT=${BENCH_SEGMENT_BYTES:-67108864}            # mappedFileSizeCommitLog
KEEP=${BENCH_KEEP:-0}                               # 1 keeps the temp folder (logs, stores)
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$( (ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null || true) | head -n 1)}
DIST=${DIST%/}
TIME_LIMIT=${BENCH_TIME_LIMIT:-3600}                # seconds per backend, hard bound
PRIME=${BENCH_PRIME:-1}                             # 1: one clean start/stop first (records the CDS archive)
BROKER_OPTS=${BENCH_BROKER_JAVA_OPTS:-}             # extra JVM options of the broker, e.g. a profiler agent

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$JAR" ] || die "no bench jar at $JAR (mvn -B -pl mq-bench -am package -DskipTests)"
[ -x "${DIST:-/nonexistent}/bin/mqbroker" ] || die "no built distribution under mq-distribution/target"
command -v python3 >/dev/null || die "needs python3 (free ports)"
command -v timeout >/dev/null || die "needs timeout (coreutils)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-crashloop.XXXXXX")
PIDS=()
ours() { [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ]; }
stop_pid() { # pid: SIGTERM, SIGKILL after 30 s; only a child of this script
    local pid=$1 i
    ours "$pid" && kill "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 300; i++)); do ours "$pid" || return 0; sleep 0.1; done
    ours "$pid" && kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    if [ "$KEEP" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_ports() { # n: n ports P, each with P-2 .. P+2 free on 127.0.0.1 and 5 apart from the others
    python3 - "$1" <<'EOF'
import random, socket, sys
# Below the kernel's ephemeral range: a port from it can be handed to an outgoing connection before
# the process that was meant to bind it gets there.
try:
    top = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0]) - 10
except (OSError, ValueError, IndexError):
    top = 30000
top = max(top, 10100)
want, out = int(sys.argv[1]), []
for _ in range(2000):
    if len(out) == want:
        break
    base = random.randint(10000, top)
    if any(abs(base - o) < 5 for o in out):
        continue
    socks = []
    try:
        for p in range(base - 2, base + 3):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        out.append(base)
    except OSError:
        pass
    finally:
        for s in socks: s.close()
print(*out)
EOF
}

wait_port() { # port seconds pid
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        kill -0 "$3" 2>/dev/null || return 1
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

kv() { # line key
    tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k {print substr($0, length(k) + 2); exit}'
}

declare -A RESULT
RC=0
for backend in $BACKENDS; do
    dir="$WORK/$backend"
    mkdir -p "$dir/ns/home" "$dir/broker/home" "$dir/broker/store"
    read -r nsport bport <<<"$(free_ports 2)"
    [ -n "${bport:-}" ] || die "no free ports found"
    printf 'listenPort=%s\nbindAddress=127.0.0.1\n' "$nsport" >"$dir/ns/namesrv.conf"
    MODMQ_LOG_DIR="$dir/ns" JAVA_OPTS="-Duser.home=$dir/ns/home" \
        "$DIST/bin/mqnamesrv" -c "$dir/ns/namesrv.conf" >"$dir/ns/namesrv.out" 2>&1 &
    nspid=$!; PIDS+=("$nspid")
    wait_port "$nsport" 60 "$nspid" || die "name server did not start (log: $dir/ns/namesrv.out)"
    cat >"$dir/broker/broker.conf" <<EOF
brokerClusterName=CrashCluster
brokerName=crash-a
brokerId=0
brokerRole=ASYNC_MASTER
brokerIP1=127.0.0.1
listenPort=$bport
haListenPort=$((bport + 1))
namesrvAddr=127.0.0.1:$nsport
storePathRootDir=$dir/broker/store
storeBackend=$backend
flushDiskType=SYNC_FLUSH
mappedFileSizeCommitLog=$SEGMENT
autoCreateTopicEnable=true
defaultTopicQueueNums=8
EOF
    if [ "$PRIME" = 1 ]; then
        # One clean start and stop first: the launcher records its class-data archive only when a JVM
        # exits cleanly, so without it every restart of a freshly built distribution would run without.
        MODMQ_LOG_DIR="$dir/broker" JAVA_OPTS="-Duser.home=$dir/broker/home $BROKER_OPTS" \
            "$DIST/bin/mqbroker" -c "$dir/broker/broker.conf" >"$dir/broker/prime.out" 2>&1 &
        primepid=$!; PIDS+=("$primepid")
        wait_port "$bport" 60 "$primepid" || die "broker did not start (log: $dir/broker/prime.out)"
        stop_pid "$primepid"
    fi
    log "$backend: name server $nsport, broker $bport, $CYCLES cycles"
    started=$(date +%s)
    set +e
    line=$(MODMQ_LOG_DIR="$dir/broker" JAVA_OPTS="-Duser.home=$dir/broker/home $BROKER_OPTS" \
        timeout --kill-after=30 "$TIME_LIMIT" java -jar "$JAR" crashloop -n "127.0.0.1:$nsport" \
        --broker-cmd "$DIST/bin/mqbroker" --broker-conf "$dir/broker/broker.conf" \
        --broker-addr "127.0.0.1:$bport" --broker-log "$dir/broker/broker.out" \
        --cycles "$CYCLES" -t "$THREADS" -s "$SIZE" -f KV 2>"$dir/crashloop.err")
    rc=$?
    set -e
    [ "$rc" -eq 0 ] || RC=1
    RESULT[$backend]="$line"
    log "$backend: done in $(( $(date +%s) - started )) s, exit $rc"
    [ -n "$line" ] || tail -n 20 "$dir/crashloop.err" >&2
    echo "$backend $line"
    stop_pid "$nspid"
done

printf '\n| backend | cycles served | acknowledged | lost | duplicates | unacknowledged stored | listen ms p50 / max | first SEND_OK ms p50 / max |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for backend in $BACKENDS; do
    l=${RESULT[$backend]:-}
    printf '| %s | %s / %s | %s | %s | %s | %s | %s / %s | %s / %s |\n' "$backend" "$(kv "$l" cycles_served)" \
        "$(kv "$l" cycles)" "$(kv "$l" acknowledged)" "$(kv "$l" lost)" "$(kv "$l" duplicates)" \
        "$(kv "$l" unacknowledged_stored)" "$(kv "$l" listen_ms_p50)" "$(kv "$l" listen_ms_max)" \
        "$(kv "$l" serve_ms_p50)" "$(kv "$l" serve_ms_max)"
done
exit "$RC"
