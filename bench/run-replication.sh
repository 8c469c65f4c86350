#!/usr/bin/env bash
# Cost of synchronous replication in modmq: SYNC_MASTER vs ASYNC_MASTER, for haStrategy pull and push,
# plus a master without a slave, all in one run on this machine.
#
#   bench/run-replication.sh                          # quick: 2 rounds, 3 s warm-up, 10 s per workload
#   BENCH_WARMUP=10 BENCH_DURATION=60 bench/run-replication.sh
#
# Needs: the built distribution (mvn -pl mq-distribution -am install -DskipTests), the bench jar
# (mvn -f mq-bench/pom.xml package), python3 (to find free ports), Linux /proc.
# For each setup it starts a name server, a master and (except the baseline) one slave of the same
# brokerName, waits until the slave holds the master's whole CommitLog, runs the same mq-bench produce
# workloads, and stops them. Everything listens on 127.0.0.1 on free ports; every file goes under one
# temp folder; only the processes this script starts are stopped (by PID) when it exits.
# See bench/README.md ("Replication cost") for the figures.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)

# ---- configuration (environment) ---------------------------------------------------------------
WARMUP=${BENCH_WARMUP:-3}                          # seconds of load before measuring
SETUP_WARMUP=${BENCH_SETUP_WARMUP:-5}              # extra warm-up of a setup's first workload (fresh JVMs)
DURATION=${BENCH_DURATION:-10}                     # measured seconds per workload
ROUNDS=${BENCH_ROUNDS:-2}                          # passes over all setups, order mirrored each pass
SIZE=${BENCH_SIZE:-1024}                           # body bytes
THREADS=${BENCH_THREADS:-16}                       # sync send threads
ASYNC_THREADS=${BENCH_ASYNC_THREADS:-2}
ASYNC_WINDOW=${BENCH_ASYNC_WINDOW:-256}            # async requests in flight
WORKLOADS=${BENCH_WORKLOADS:-sync async}           # which produce modes to run
STRATEGIES=${BENCH_STRATEGIES:-pull push}
BASELINE=${BENCH_BASELINE:-1}                      # 0 skips the master without a slave
QUEUES=${BENCH_QUEUES:-8}
HEAP=${BENCH_HEAP:--Xms128m -Xmx512m -XX:MaxDirectMemorySize=1g -XX:+UseG1GC -XX:MaxGCPauseMillis=50}
NAMESRV_HEAP=${BENCH_NAMESRV_HEAP:--Xms64m -Xmx256m}
EXTRA_OPTS=${BENCH_MODMQ_JAVA_OPTS:-}              # extra JVM options of both brokers
START_TIMEOUT=${BENCH_START_TIMEOUT:-120}          # seconds for a setup to take a send and replicate it
KEEP=${BENCH_KEEP:-0}                              # 1 keeps the temp folder (logs, stores)
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$(ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null | head -n 1)}
DIST=${DIST%/}
STEP_TIMEOUT=$(( WARMUP + SETUP_WARMUP + DURATION + 180 ))

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$JAR" ] || die "no bench jar at $JAR (mvn -f mq-bench/pom.xml package)"
[ -x "$DIST/bin/mqbroker" ] || die "no modmq distribution at '$DIST' (mvn -pl mq-distribution -am install -DskipTests)"
[ -r /proc/self/stat ] || die "needs Linux /proc"
command -v python3 >/dev/null || die "needs python3 (free ports)"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive number"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-repl.XXXXXX")
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]:-}"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]:-}"; do
        [ -n "$pid" ] && wait_gone "$pid" 30
    done
    if [ "$KEEP" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- helpers ----------------------------------------------------------------------------------
wait_gone() { # pid seconds: wait until the process is gone; SIGKILL after the limit
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$1" 2>/dev/null || true
}

forget_pid() { local p; local keep=(); for p in "${PIDS[@]:-}"; do [ "$p" != "$1" ] && keep+=("$p"); done; PIDS=("${keep[@]:-}"); }

free_base_port() { # a port P with P-2 .. P+2 free on 127.0.0.1 (the broker also binds P+1 for HA)
    python3 - <<'EOF'
import random, socket
# Below the kernel's ephemeral range: a port from it can be handed to an outgoing connection before
# the process that was meant to bind it gets there.
try:
    top = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0]) - 10
except (OSError, ValueError, IndexError):
    top = 30000
top = max(top, 10100)
for _ in range(200):
    base = random.randint(10000, top)
    socks = []
    try:
        for p in range(base - 2, base + 3):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        print(base); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()
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

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; } # comm is "java": no spaces
CLK_TCK=$(getconf CLK_TCK)
per_million() { # ticks messages: CPU seconds per 10^6 messages
    awk -v t="$1" -v h="$CLK_TCK" -v m="$2" 'BEGIN {printf "%.1f", t / h / m * 1e6}'
}
kv() { # line key
    tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k {print substr($0, length(k) + 2); exit}'
}

bench() { # dir args...: runs mq-bench with the client's logs and home under dir; prints its last stdout line
    local dir=$1; shift
    java -Drocketmq.log.root="$dir/logs/client" -Duser.home="$dir/home" -jar "$JAR" "$@" -f kv --quiet \
        2>>"$dir/logs/bench.err" | tail -n 1
}

# broker_conf file name id role strategy port nsport store
broker_conf() {
    cat >"$1" <<EOF
brokerClusterName=ReplBench
brokerName=$2
brokerId=$3
brokerRole=$4
haStrategy=$5
brokerIP1=127.0.0.1
listenPort=$6
haListenPort=$(($6 + 1))
namesrvAddr=127.0.0.1:$7
storePathRootDir=$8
flushDiskType=ASYNC_FLUSH
autoCreateTopicEnable=true
autoCreateSubscriptionGroup=true
defaultTopicQueueNums=$QUEUES
EOF
}

start_broker() { # dir conf: starts bin/mqbroker; its PID goes to STARTED and the lists of PIDs
    MODMQ_LOG_DIR="$1" JAVA_HEAP_OPTS="$HEAP" JAVA_OPTS="-Duser.home=$1/home $EXTRA_OPTS" \
        "$DIST/bin/mqbroker" -c "$2" >"$1/broker.out" 2>&1 &
    STARTED=$!
    PIDS+=("$STARTED"); SETUP_PIDS+=("$STARTED")
}

# ---- one setup --------------------------------------------------------------------------------
declare -A R          # R[setup|workload|round|key] = value
SETUP_PIDS=()

# start_setup id strategy role with_slave: name server, master and maybe a slave; sets NS, MASTER, SLAVE
start_setup() {
    local id=$1 strategy=$2 role=$3 with_slave=$4 dir="$WORK/$1"
    local nsport mport sport nspid mpid spid line
    mkdir -p "$dir/ns" "$dir/master/home" "$dir/slave/home" "$dir/logs" "$dir/home"
    nsport=$(free_base_port); mport=$(free_base_port); sport=$(free_base_port)
    while [ "$mport" = "$nsport" ] || [ $((mport > sport ? mport - sport : sport - mport)) -lt 3 ] \
            || [ $((nsport > sport ? nsport - sport : sport - nsport)) -lt 3 ] \
            || [ $((nsport > mport ? nsport - mport : mport - nsport)) -lt 3 ]; do
        mport=$(free_base_port); sport=$(free_base_port)
    done
    printf 'listenPort=%s\nbindAddress=127.0.0.1\n' "$nsport" >"$dir/ns/namesrv.conf"
    MODMQ_LOG_DIR="$dir/ns" JAVA_HEAP_OPTS="$NAMESRV_HEAP" JAVA_OPTS="-Duser.home=$dir/ns" \
        "$DIST/bin/mqnamesrv" -c "$dir/ns/namesrv.conf" >"$dir/ns/namesrv.out" 2>&1 &
    nspid=$!; PIDS+=("$nspid"); SETUP_PIDS=("$nspid")
    wait_port "$nsport" 60 "$nspid" || die "$id: name server did not listen on $nsport (BENCH_KEEP=1 keeps $dir)"

    broker_conf "$dir/master/broker.conf" repl-a 0 "$role" "$strategy" "$mport" "$nsport" "$dir/master/store"
    start_broker "$dir/master" "$dir/master/broker.conf"; mpid=$STARTED
    wait_port "$mport" 60 "$mpid" || die "$id: master did not listen on $mport (BENCH_KEEP=1 keeps $dir)"
    if [ "$with_slave" = 1 ]; then
        # The slave learns the master's HA address from its registration answers; a short period
        # (slave only) bounds the wait if its first registration reaches the name server first.
        broker_conf "$dir/slave/broker.conf" repl-a 1 SLAVE "$strategy" "$sport" "$nsport" "$dir/slave/store"
        echo "registerNameServerPeriod=2000" >>"$dir/slave/broker.conf"
        start_broker "$dir/slave" "$dir/slave/broker.conf"; spid=$STARTED
    fi
    NS="127.0.0.1:$nsport"; MASTER="127.0.0.1:$mport"; SLAVE="127.0.0.1:$sport"
    MASTER_PID=$mpid; SLAVE_PID=${spid:-}

    # A SYNC_MASTER answers SEND_OK only once a slave is in sync; an ASYNC_MASTER at once.
    line=$(bench "$dir" probe -n "$NS" --timeout "$START_TIMEOUT") || true
    [ -n "$(kv "$line" first_send_epoch_ms)" ] || die "$id: no send succeeded within ${START_TIMEOUT}s (BENCH_KEEP=1 keeps $dir)"
    if [ "$with_slave" = 1 ]; then
        line=$(bench "$dir" replica -n "$NS" --master "$MASTER" --slave "$SLAVE" --timeout "$START_TIMEOUT") || true
        [ "$(kv "$line" caught_up)" = true ] || die "$id: the slave did not catch up within ${START_TIMEOUT}s: $line"
    fi
    log "$id: up (name server $nsport, master $mport${SLAVE_PID:+, slave $sport})"
}

stop_setup() {
    local p i
    for ((i = ${#SETUP_PIDS[@]} - 1; i >= 0; i--)); do
        p=${SETUP_PIDS[$i]}
        kill "$p" 2>/dev/null || true
        wait_gone "$p" 30
        forget_pid "$p"
    done
    SETUP_PIDS=()
}

# run_setup id strategy role with_slave round
run_setup() {
    local id=$1 strategy=$2 role=$3 with_slave=$4 round=$5 dir="$WORK/$1"
    local w line mb ma sb sa moved args warmup=$((WARMUP + SETUP_WARMUP))
    start_setup "$id" "$strategy" "$role" "$with_slave"
    for w in $WORKLOADS; do
        case "$w" in
            sync) args=(-m sync -t "$THREADS") ;;
            async) args=(-m async -t "$ASYNC_THREADS" --window "$ASYNC_WINDOW") ;;
            *) die "unknown workload $w (sync or async)" ;;
        esac
        mb=$(cpu_ticks "$MASTER_PID"); sb=0; [ -z "$SLAVE_PID" ] || sb=$(cpu_ticks "$SLAVE_PID")
        line=$(timeout "$STEP_TIMEOUT" java -Drocketmq.log.root="$dir/logs/client" -Duser.home="$dir/home" \
            -jar "$JAR" produce "${args[@]}" -n "$NS" -s "$SIZE" -q "$QUEUES" -w "$warmup" -d "$DURATION" \
            -f kv --quiet 2>>"$dir/logs/bench.err" | tail -n 1) || log "$id $w: produce failed (see $dir/logs/bench.err)"
        ma=$(cpu_ticks "$MASTER_PID"); sa=0; [ -z "$SLAVE_PID" ] || sa=$(cpu_ticks "$SLAVE_PID")
        warmup=$WARMUP
        for k in msgs_per_sec p50_ms p99_ms errors; do R["$id|$w|$round|$k"]=$(kv "$line" "$k"); done
        moved=$(kv "$line" moved); moved=${moved:-0}
        if [ "$moved" -gt 0 ]; then
            R["$id|$w|$round|cpu"]=$(per_million $((ma - mb + sa - sb)) "$moved")
            R["$id|$w|$round|cpu_slave"]=$(per_million $((sa - sb)) "$moved")
        fi
        if [ "$with_slave" = 1 ]; then
            # The slave must hold everything the master stored (proof that replication ran).
            local check
            check=$(bench "$dir" replica -n "$NS" --master "$MASTER" --slave "$SLAVE" --timeout 60) || true
            R["$id|$w|$round|synced"]=$(kv "$check" caught_up)
        fi
        log "$id $w (round $round): $(kv "$line" msgs_per_sec) msgs/s, p50 $(kv "$line" p50_ms) ms, p99 $(kv "$line" p99_ms) ms, errors $(kv "$line" errors), broker cpu s/1M ${R["$id|$w|$round|cpu"]:--} (slave ${R["$id|$w|$round|cpu_slave"]:--})"
    done
    stop_setup
    [ "$KEEP" = 1 ] || rm -rf "$dir/master/store" "$dir/slave/store"
}

# ---- the run ----------------------------------------------------------------------------------
# Setups: id strategy role with_slave. Each ASYNC/SYNC pair runs back to back, the baseline between
# the strategies; even rounds run the list backwards, so every pair runs once in each order.
SETUPS=()
for s in $STRATEGIES; do
    SETUPS+=("$s-async $s ASYNC_MASTER 1" "$s-sync $s SYNC_MASTER 1")
    [ "$BASELINE" != 1 ] || [ "${#SETUPS[@]}" -ne 2 ] || SETUPS+=("alone pull ASYNC_MASTER 0")
done
[ "$BASELINE" != 1 ] || [[ " ${SETUPS[*]} " == *" alone "* ]] || SETUPS+=("alone pull ASYNC_MASTER 0")

log "warm-up ${WARMUP}s, duration ${DURATION}s, $ROUNDS round(s), workloads '$WORKLOADS', strategies '$STRATEGIES'; temp $WORK"
for ((round = 1; round <= ROUNDS; round++)); do
    order=("${SETUPS[@]}")
    if ((round % 2 == 0)); then
        order=(); for ((i = ${#SETUPS[@]} - 1; i >= 0; i--)); do order+=("${SETUPS[$i]}"); done
    fi
    for setup in "${order[@]}"; do
        # shellcheck disable=SC2086
        run_setup $setup "$round"
    done
done

# ---- table ------------------------------------------------------------------------------------
mean() { # setup workload key: mean over the rounds that have a number
    local r v sum=0 n=0
    for ((r = 1; r <= ROUNDS; r++)); do
        v=${R["$1|$2|$r|$3"]:-}
        [[ "$v" =~ ^[0-9.]+$ ]] || continue
        sum=$(awk -v a="$sum" -v b="$v" 'BEGIN {print a + b}'); n=$((n + 1))
    done
    [ "$n" -gt 0 ] && awk -v s="$sum" -v n="$n" -v f="$4" 'BEGIN {printf f, s / n}' || echo -
}
spread() { # setup workload: min-max of msgs/s over the rounds
    local r v out=()
    for ((r = 1; r <= ROUNDS; r++)); do
        v=${R["$1|$2|$r|msgs_per_sec"]:-}
        [[ "$v" =~ ^[0-9.]+$ ]] && out+=("$v")
    done
    [ "${#out[@]}" -gt 0 ] || { echo -; return; }
    printf '%s\n' "${out[@]}" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.0f..%.0f", lo, hi}'
}
synced() { # setup workload: yes when the slave caught up after every round
    local r all=yes
    for ((r = 1; r <= ROUNDS; r++)); do [ "${R["$1|$2|$r|synced"]:-}" = true ] || all=no; done
    echo "$all"
}
cost() { # sync async: (1 - sync/async) in %
    awk -v s="$1" -v a="$2" 'BEGIN { if (s ~ /^[0-9.]+$/ && a ~ /^[0-9.]+$/ && a > 0) printf "%+.1f %%", (1 - s / a) * 100; else print "-" }'
}

echo
echo "warmup=${WARMUP}s (+${SETUP_WARMUP}s first workload of a setup) duration=${DURATION}s rounds=$ROUNDS size=$SIZE threads=$THREADS async=${ASYNC_THREADS}x${ASYNC_WINDOW} flushDiskType=ASYNC_FLUSH heap='$HEAP' nproc=$(nproc)"
echo "(mean over rounds; 'cost' = 1 - msgs/s / msgs/s of ASYNC_MASTER with the same strategy; 'vs alone' the same against the master without a slave)"
printf '| %-8s | %-12s | %-8s | %9s | %13s | %7s | %7s | %8s | %9s | %10s | %6s |\n' \
    strategy role workload msgs/s "msgs/s range" "p50 ms" "p99 ms" cost "vs alone" "cpu s/1M" synced
echo "|----------|--------------|----------|-----------|---------------|---------|---------|----------|-----------|------------|--------|"
for w in $WORKLOADS; do
    base=$(mean alone "$w" msgs_per_sec "%.1f")
    for s in $STRATEGIES; do
        a=$(mean "$s-async" "$w" msgs_per_sec "%.1f")
        for role in ASYNC_MASTER SYNC_MASTER; do
            id="$s-async"; [ "$role" = SYNC_MASTER ] && id="$s-sync"
            m=$(mean "$id" "$w" msgs_per_sec "%.1f")
            c=-; [ "$role" = SYNC_MASTER ] && c=$(cost "$m" "$a")
            printf '| %-8s | %-12s | %-8s | %9s | %13s | %7s | %7s | %8s | %9s | %10s | %6s |\n' "$s" "$role" "$w" "$m" \
                "$(spread "$id" "$w")" "$(mean "$id" "$w" p50_ms "%.3f")" "$(mean "$id" "$w" p99_ms "%.3f")" "$c" \
                "$(cost "$m" "$base")" "$(mean "$id" "$w" cpu "%.1f")" "$(synced "$id" "$w")"
        done
    done
    printf '| %-8s | %-12s | %-8s | %9s | %13s | %7s | %7s | %8s | %9s | %10s | %6s |\n' "-" "no slave" "$w" "$base" \
        "$(spread alone "$w")" "$(mean alone "$w" p50_ms "%.3f")" "$(mean alone "$w" p99_ms "%.3f")" "-" "-" \
        "$(mean alone "$w" cpu "%.1f")" "-"
done
errors=0
for key in "${!R[@]}"; do
    [[ "$key" == *"|errors" ]] && [[ "${R[$key]}" =~ ^[0-9]+$ ]] && errors=$((errors + R[$key]))
done
echo "send errors over all runs: $errors"
