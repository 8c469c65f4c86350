#!/usr/bin/env bash
# Reads from replicas: a consumer catches up on a backlog while producers load the master, with the
# master sending the consumer to an in-sync replica ("offload") and without ("master only"), in one run.
#
#   bench/run-replica-reads.sh                     # 300 000 x 1 KiB backlog, 16 load threads
#   BENCH_BACKLOG=1000000 bench/run-replica-reads.sh
#
# For each variant it starts a fresh modmq cluster from the built distribution: one name server with an
# embedded controller and a broker set of a master and a replica in controller mode
# (allAckInSyncStateSet=true), all on 127.0.0.1 and free ports; then `mq-bench backlog` stores the
# backlog, waits for the replica to hold it, and drains it with a new consumer group while 16 threads
# sync-send to another topic. "offload" counts the backlog as cold data (accessMessageInMemoryMaxRatio=1,
# i.e. 1 % of RAM) so the master sends the consumer to the replica; "master only" switches every reason
# off (ratio 100, readOffloadSendQueueDepth and readOffloadCpuRatio out of reach). Prints one table.
# Needs the bench jar and the distribution built, python3 (free ports), Linux. Only its own PIDs are
# signalled; everything lives in one temp folder.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)
BACKLOG=${BENCH_BACKLOG:-300000}
THREADS=${BENCH_THREADS:-16}
SIZE=${BENCH_SIZE:-1024}
RATIO=${BENCH_OFFLOAD_RATIO:-1}
KEEP=${BENCH_KEEP:-0}
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$( (ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null || true) | head -n 1)}
DIST=${DIST%/}

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
[ -f "$JAR" ] || die "no bench jar at $JAR (mvn -B -pl mq-bench -am package -DskipTests)"
[ -x "$DIST/bin/mqbroker" ] || die "no distribution at $DIST (mvn -B -pl mq-distribution -am package -DskipTests)"
command -v python3 >/dev/null || die "needs python3 (free ports)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-replica-reads.XXXXXX")
PIDS=()
ours() { [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ]; }
stop_pids() {
    local pid i
    for pid in "$@"; do ours "$pid" && kill "$pid" 2>/dev/null || true; done
    for pid in "$@"; do
        for ((i = 0; i < 300; i++)); do ours "$pid" || break; sleep 0.1; done
        ours "$pid" && kill -9 "$pid" 2>/dev/null || true
    done
}
cleanup() {
    [ "${#PIDS[@]}" -eq 0 ] || stop_pids "${PIDS[@]}"
    if [ "$KEEP" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_ports() { # n ports P with P and P+1 free on 127.0.0.1, 5 apart
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
        for p in (base, base + 1):
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

run_variant() { # name extra-broker-keys...: prints the kv line of mq-bench backlog
    local name=$1; shift
    local dir="$WORK/$name" ports nsport ctlport b1 b2 i pid out
    mkdir -p "$dir"
    read -r nsport ctlport b1 b2 <<<"$(free_ports 4)"
    cat >"$dir/namesrv.conf" <<EOF
listenPort=$nsport
bindAddress=127.0.0.1
enableControllerInNamesrv=true
controllerDLegerPeers=n0-127.0.0.1:$ctlport
controllerDLegerSelfId=n0
controllerStorePath=$dir/controller
EOF
    MODMQ_LOG_DIR="$dir/ns" "$DIST/bin/mqnamesrv" -c "$dir/namesrv.conf" >"$dir/ns.out" 2>&1 &
    pid=$!; PIDS+=("$pid")
    wait_port "$ctlport" 60 "$pid" || die "$name: the name server with its controller did not start ($dir/ns.out)"
    local brokers=()
    i=0
    for port in $b1 $b2; do
        i=$((i + 1))
        mkdir -p "$dir/b$i"
        {
            echo "brokerClusterName=ReadsCluster"
            echo "brokerName=reads-a"
            echo "brokerIP1=127.0.0.1"
            echo "listenPort=$port"
            echo "haListenPort=$((port + 1))"
            echo "namesrvAddr=127.0.0.1:$nsport"
            echo "storePathRootDir=$dir/b$i/store"
            echo "enableControllerMode=true"
            echo "controllerAddr=127.0.0.1:$ctlport"
            echo "allAckInSyncStateSet=true"
            echo "autoCreateTopicEnable=true"
            echo "mappedFileSizeCommitLog=268435456"
            for kv in "$@"; do echo "$kv"; done
        } >"$dir/b$i/broker.conf"
        MODMQ_LOG_DIR="$dir/b$i" "$DIST/bin/mqbroker" -c "$dir/b$i/broker.conf" >"$dir/b$i/broker.out" 2>&1 &
        pid=$!; PIDS+=("$pid")
        wait_port "$port" 60 "$pid" || die "$name: broker $i did not start ($dir/b$i/broker.out)"
        brokers+=("--broker" "127.0.0.1:$port")
        # The first broker asks for the election alone, so it becomes master.
        [ "$i" = 1 ] && sleep 3
    done
    out=$(timeout 900 java -Drocketmq.log.root="$dir/client" -jar "$JAR" backlog -n "127.0.0.1:$nsport" \
        -N "$BACKLOG" -t "$THREADS" -s "$SIZE" "${brokers[@]}" --quiet -f KV) || die "$name: backlog run failed"
    stop_pids "${PIDS[@]}"
    PIDS=()
    echo "variant=$name $out"
}

log "backlog $BACKLOG x $SIZE B, $THREADS load threads; temp $WORK"
offload=$(run_variant offload "accessMessageInMemoryMaxRatio=$RATIO")
log "$offload"
master=$(run_variant master-only "accessMessageInMemoryMaxRatio=100" "readOffloadSendQueueDepth=2147483647" \
    "readOffloadCpuRatio=1.01")
log "$master"

field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
printf '| figure | offload to the replica | master only |\n|---|---:|---:|\n'
for f in drain_msgs_per_sec drain_seconds load_msgs_per_sec p50_ms p99_ms load_errors served_by_master served_by_broker1; do
    printf '| %s | %s | %s |\n' "$f" "$(field "$offload" "$f")" "$(field "$master" "$f")"
done
echo "$offload"
echo "$master"
