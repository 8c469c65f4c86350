#!/usr/bin/env bash
# A/B of two modmq builds (or two settings of one build) on the standalone broker, taking turns.
#
#   MODMQ_DIST_A=/tmp/old-dist bench/run-ab.sh                       # old build (A) vs this tree's (B)
#   BENCH_CONF_B="wakeFlushWhenPutMessage=true" bench/run-ab.sh      # one build, two settings
#
# Each turn starts bin/modmq (name server and broker in one process) on fresh free ports and a fresh store
# under one temp folder, runs one mq-bench produce workload (its own warm-up, then the measured window),
# reads the broker's CPU over the middle of the window from /proc and stops the broker by its PID.
# Prints one line per turn: side, mode, msgs/s, p99 and broker CPU µs per message.
# Needs: the built distribution and bench jar (mvn -B -ntp -q install -DskipTests), python3, Linux /proc.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)
DIST_B=${MODMQ_DIST_B:-$(ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null | head -n 1)}
DIST_A=${MODMQ_DIST_A:-$DIST_B}
CONF_A=${BENCH_CONF_A:-}                # extra key=value settings of side A, space-separated
CONF_B=${BENCH_CONF_B:-}
MODES=${BENCH_MODES:-sync async}        # mq-bench produce modes
THREADS=${BENCH_THREADS:-16}
WARMUP=${BENCH_WARMUP:-20}
DURATION=${BENCH_DURATION:-20}          # measured seconds; broker CPU is read over DURATION - 4 of them
ROUNDS=${BENCH_ROUNDS:-2}
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}

die() { echo "error: $*" >&2; exit 1; }
[ -f "$JAR" ] || die "no bench jar at $JAR"
[ -x "${DIST_A%/}/bin/modmq" ] && [ -x "${DIST_B%/}/bin/modmq" ] || die "no distribution at '$DIST_A' or '$DIST_B'"
[[ "$DURATION" =~ ^[0-9]+$ ]] && [ "$DURATION" -ge 8 ] || die "BENCH_DURATION must be at least 8"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-ab.XXXXXX")
BROKER=""
cleanup() {
    if [ -n "$BROKER" ]; then kill "$BROKER" 2>/dev/null || true; wait "$BROKER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { # below the ephemeral range, with the next port free too
    python3 - <<'EOF'
import random, socket
top = max(int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0]) - 10, 10100)
for _ in range(200):
    p = random.randint(10000, top); socks = []
    try:
        for q in (p, p + 1):
            s = socket.socket(); s.bind(("127.0.0.1", q)); socks.append(s)
        print(p); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()
EOF
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

turn() { # side dist conf mode
    local side=$1 dist=${2%/} conf=$3 mode=$4 dir ns bp t0 t1 line rate i
    dir=$(mktemp -d "$WORK/$side.XXXX")
    ns=$(free_port); bp=$(free_port)
    while [ $((ns > bp ? ns - bp : bp - ns)) -lt 3 ]; do bp=$(free_port); done
    {
        printf 'brokerClusterName=DefaultCluster\nbrokerName=broker-ab\nbrokerId=0\nbrokerRole=ASYNC_MASTER\n'
        printf 'brokerIP1=127.0.0.1\nlistenPort=%s\nnamesrvAddr=127.0.0.1:%s\n' "$bp" "$ns"
        printf 'autoCreateTopicEnable=true\nautoCreateSubscriptionGroup=true\nstorePathRootDir=%s/store\n' "$dir"
        printf 'storeBackend=mmap\nflushDiskType=ASYNC_FLUSH\n'
        for kv in $conf; do echo "$kv"; done
    } >"$dir/standalone.conf"
    MODMQ_LOG_DIR="$dir" JAVA_OPTS="-Duser.home=$dir" "$dist/bin/modmq" -c "$dir/standalone.conf" >"$dir/out" 2>&1 &
    BROKER=$!
    for ((i = 0; i < 300; i++)); do
        (exec 3<>"/dev/tcp/127.0.0.1/$bp") 2>/dev/null && break
        kill -0 "$BROKER" 2>/dev/null || die "$side: broker exited (see $dir/out)"
        sleep 0.2
    done
    java -jar "$JAR" produce -n "127.0.0.1:$ns" -m "$mode" -t "$THREADS" -w "$WARMUP" -d "$DURATION" --quiet -f KV \
        >"$dir/report" 2>"$dir/client.err" &
    local client=$!
    # The client JVM starts in about a second or two: sample from 3 s into the window to 1 s before its end.
    sleep $((WARMUP + 3)); t0=$(ticks "$BROKER")
    sleep $((DURATION - 4)); t1=$(ticks "$BROKER")
    wait "$client" || die "$side: mq-bench failed (see $dir/client.err)"
    kill "$BROKER"; wait "$BROKER" 2>/dev/null || true; BROKER=""
    line=$(cat "$dir/report")
    rate=$(tr ' ' '\n' <<<"$line" | awk -F= '$1 == "msgs_per_sec" {print $2}')
    printf '%s %s msgs_per_sec=%s p99_ms=%s broker_cpu_us_per_msg=%s\n' "$side" "$mode" "$rate" \
        "$(tr ' ' '\n' <<<"$line" | awk -F= '$1 == "p99_ms" {print $2}')" \
        "$(awk -v t=$((t1 - t0)) -v h="$(getconf CLK_TCK)" -v r="$rate" -v d=$((DURATION - 4)) \
            'BEGIN {printf "%.1f", t / h * 1e6 / (r * d)}')"
    rm -rf "$dir"
}

for ((round = 1; round <= ROUNDS; round++)); do
    for mode in $MODES; do
        turn A "$DIST_A" "$CONF_A" "$mode"
        turn B "$DIST_B" "$CONF_B" "$mode"
    done
done
