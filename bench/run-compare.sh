#!/usr/bin/env bash
# Side-by-side benchmark of modmq and Apache RocketMQ (5.5.0 and 5.3.3) on this machine, in one run.
#
#   bench/run-compare.sh                     # quick mode
#   BENCH_MODE=full bench/run-compare.sh     # longer runs, 1 M message drain
#   BENCH_PIN=1 bench/run-compare.sh         # broker on CPU 0, client on CPU 1 (taskset)
#
# Needs: the built distribution (mvn -f mq-distribution/pom.xml package), the bench jar
# (mvn -f mq-bench/pom.xml package), Maven (to resolve each RocketMQ line once into
# bench/rocketmq/target/lib-<version>), python3 (to find free ports), Linux /proc, ss.
# Each RocketMQ broker runs with the shape of its stock bin/runbroker.sh (G1 with its settings,
# pre-touched heap), the heap 2 GiB instead of 8 GiB; modmq with its own launcher's defaults.
# Everything listens on 127.0.0.1; every file goes under one temp folder; only the processes
# this script starts are stopped (by PID) when it exits. See bench/README.md for the figures.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)

# ---- configuration (environment) ---------------------------------------------------------------
MODE=${BENCH_MODE:-quick}
case "$MODE" in
    quick) d_warmup=3; d_duration=10; d_drain=100000 ;;
    full)  d_warmup=10; d_duration=60; d_drain=1000000 ;;
    *) echo "BENCH_MODE must be quick or full" >&2; exit 2 ;;
esac
WARMUP=${BENCH_WARMUP:-$d_warmup}                  # seconds of load before measuring
DURATION=${BENCH_DURATION:-$d_duration}            # measured seconds per workload
DRAIN_N=${BENCH_DRAIN_MESSAGES:-$d_drain}          # messages stored, then drained
E2E_RATE=${BENCH_E2E_RATE:-20000}                  # msgs/s of the end-to-end workload
SIZE=${BENCH_SIZE:-1024}                           # body bytes
THREADS=${BENCH_THREADS:-16}                       # sync send threads of the SYNC_FLUSH phase
SYNC_THREADS=${BENCH_SYNC_THREADS:-4 16 64}        # sync send threads, one workload each (ASYNC_FLUSH)
ASYNC_THREADS=${BENCH_ASYNC_THREADS:-1}
ASYNC_WINDOW=${BENCH_ASYNC_WINDOW:-1024}           # async requests in flight
BATCH=${BENCH_BATCH:-32}
BATCH_THREADS=${BENCH_BATCH_THREADS:-4}
QUEUES=${BENCH_QUEUES:-8}
NAMESRV_HEAP=${BENCH_NAMESRV_HEAP:--Xms256m -Xmx256m}
# RocketMQ's runbroker.sh (5.x, JDK 9+ branch), heap 2 GiB instead of 8 GiB.
RMQ_HEAP=${BENCH_ROCKETMQ_HEAP:--server -Xms2g -Xmx2g -XX:+UseG1GC -XX:G1HeapRegionSize=16m -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30 -XX:SoftRefLRUPolicyMSPerMB=0 -XX:-OmitStackTraceInFastThrow -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=15g -XX:-UseLargePages}
BROKERS=${BENCH_BROKERS:-modmq rocketmq-5.5.0 rocketmq-5.3.3} # subset/order to run; rocketmq = rocketmq-5.3.3
CLIENTS=${BENCH_CLIENTS:-5.5.0}                    # stock client lines driving each workload, e.g. "5.5.0 5.3.3"
PIN=${BENCH_PIN:-0}                                # 1: broker pinned to CPU 0, clients to CPU 1
START_TIMEOUT=${BENCH_START_TIMEOUT:-120}          # seconds for a broker to take its first send
KEEP=${BENCH_KEEP:-0}                              # 1 keeps the temp folder (logs, stores)
MODMQ_EXTRA_OPTS=${BENCH_MODMQ_JAVA_OPTS:-}        # extra JVM options of the modmq broker, e.g. JFR
MODMQ_BACKEND=${BENCH_MODMQ_BACKEND:-mmap}         # modmq storeBackend: mmap or direct (O_DIRECT)
MODMQ_HEAP=${BENCH_MODMQ_HEAP:-}                   # heap options of the modmq broker (default: its launcher's)
MODMQ_CONF=${BENCH_MODMQ_CONF:-}                   # extra key=value settings of the modmq broker, space-separated
PHASES=${BENCH_PHASES:-1 2}                        # 1 = ASYNC_FLUSH workloads, 2 = SYNC_FLUSH sync send
WORKLOADS=${BENCH_WORKLOADS:-sync async batch drain e2e}   # phase-1 workloads to run
PROBE_SETTLE=${BENCH_PROBE_SETTLE:-1}              # seconds the probe runs before the broker is launched
RMQ_EXTRA_OPTS=${BENCH_ROCKETMQ_JAVA_OPTS:-}       # extra JVM options of the RocketMQ brokers
CLIENT_EXTRA_OPTS=${BENCH_CLIENT_JAVA_OPTS:-}      # extra JVM options of the workload clients (%k: broker kind)
SETTLE_PCT=${BENCH_SETTLE_PCT:-10}                  # before each workload: wait until all brokers and name servers
SETTLE_MAX=${BENCH_SETTLE_MAX:-30}                  #   together use < SETTLE_PCT % of a core, at most SETTLE_MAX s
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$(ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null | head -n 1)}
DIST=${DIST%/}
RMQ_LIB_BASE=${BENCH_ROCKETMQ_LIB_BASE:-$HERE/rocketmq/target}
STEP_TIMEOUT=$(( WARMUP + DURATION + 180 ))

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$JAR" ] || die "no bench jar at $JAR (mvn -f mq-bench/pom.xml package)"
[ -r /proc/self/status ] || die "needs Linux /proc"
command -v python3 >/dev/null || die "needs python3 (free ports)"
case "$MODMQ_BACKEND" in mmap|direct) ;; *) die "BENCH_MODMQ_BACKEND must be mmap or direct" ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-bench.XXXXXX")
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

free_base_port() { # a port P with P-2 .. P+2 free on 127.0.0.1 (RocketMQ also binds P-2 and P+1)
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

wait_client() { # port seconds pid: until a process holds an established connection to the port
    local i
    command -v ss >/dev/null || { sleep 3; return 0; }
    for ((i = 0; i < $2 * 20; i++)); do
        kill -0 "$3" 2>/dev/null || return 1
        [ -n "$(ss -Htn state established dst "127.0.0.1:$1" 2>/dev/null)" ] && return 0
        sleep 0.05
    done
    return 1
}

now_ms() { date +%s%3N; }
syscalls() { # pid: "read-syscalls write-syscalls voluntary-context-switches" of the process so far
    local rw cs
    rw=$(awk '/^syscr:/ {r = $2} /^syscw:/ {w = $2} END {print r + 0, w + 0}' "/proc/$1/io" 2>/dev/null || echo "0 0")
    cs=$(cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches:/ {n += $2} END {print n + 0}')
    echo "$rw $cs"
}
per_msg() { # before after ms rate: (after - before) per message at rate msgs/s over ms
    awk -v a="$1" -v b="$2" -v ms="$3" -v r="$4" 'BEGIN { if (r > 0 && ms > 0) printf "%.2f", (b - a) / (ms / 1000) / r; else print "-" }'
}
client_segments() { # kind: "segs_out segs_in" summed over the connections to kind's broker port (client side)
    local port
    port=${BRPORT[$1]}
    ss -tinH state established dst "127.0.0.1:$port" 2>/dev/null \
        | { grep -o 'segs_\(out\|in\):[0-9]*' || true; } | awk -F: '$1 == "segs_out" {o += $2} $1 == "segs_in" {i += $2} END {print o + 0, i + 0}'
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; } # comm is "java": no spaces
vm_hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_parts() { # pid: what the resident set is made of now, for the log
    awk '/^(VmHWM|VmRSS|RssAnon|RssFile):/ {printf "%s %d MiB  ", $1, $2 / 1024}' "/proc/$1/status" 2>/dev/null
}
CLK_TCK=$(getconf CLK_TCK)
kv() { # line key
    tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k {print substr($0, length(k) + 2); exit}'
}

rmq_version() { echo "${1#rocketmq-}"; } # kind: the RocketMQ line of a rocketmq-<version> kind
rmq_lib() { # version: where that line's jars are (5.3.3 keeps the folder run-failover.sh shares)
    if [ "$1" = 5.3.3 ] && [ -f "$RMQ_LIB_BASE/lib/rocketmq-broker-5.3.3.jar" ]; then echo "$RMQ_LIB_BASE/lib"
    else echo "$RMQ_LIB_BASE/lib-$1"; fi
}
resolve_rocketmq() { # version: resolves that line's name server, broker, client and tools once
    local lib
    lib=$(rmq_lib "$1")
    if [ ! -f "$lib/rocketmq-broker-$1.jar" ]; then
        log "resolving Apache RocketMQ $1 into $lib"
        mvn -B -q -f "$HERE/rocketmq/pom.xml" -Drocketmq.version="$1" dependency:copy-dependencies \
            -DoutputDirectory="$lib" >&2
    fi
}
# Command prefixes that pin a process to CPU 0 (brokers) or CPU 1 (clients, name servers) when
# BENCH_PIN=1; taskset execs the command, so $! stays the process's own PID.
ON_CPU0=(); ON_CPU1=()
if [ "$PIN" = 1 ]; then ON_CPU0=(taskset -c 0); ON_CPU1=(taskset -c 1); fi
client_cp() { # client line: the class path that runs the bench with that stock client
    if [ "$1" = 5.3.3 ]; then echo "$JAR"; else echo "$(rmq_lib "$1")/*:$JAR"; fi
}

# ---- broker start/stop ------------------------------------------------------------------------
# start_pair KIND FLUSH: starts KIND's name server and broker under $WORK/KIND-FLUSH; sets
# NS[KIND], NSPID[KIND], BRPID[KIND], BRPORT[KIND], TTFS[KIND] (ms from broker launch to first stored send).
declare -A NS NSPID BRPID BRPORT TTFS
start_pair() {
    local kind=$1 flush=$2 dir="$WORK/$1-$2" nsport brport lib=""
    case "$kind" in rocketmq-*) lib=$(rmq_lib "$(rmq_version "$kind")") ;; esac
    mkdir -p "$dir/home" "$dir/store" "$dir/logs"
    nsport=$(free_base_port); brport=$(free_base_port)
    [ "$brport" != "$nsport" ] || brport=$(free_base_port)
    case "$kind" in
        modmq)
            [ -x "$DIST/bin/mqbroker" ] || die "no modmq distribution at '$DIST' (mvn -f mq-distribution/pom.xml package)"
            cat >"$dir/namesrv.conf" <<EOF
listenPort=$nsport
bindAddress=127.0.0.1
EOF
            cat >"$dir/broker.conf" <<EOF
brokerClusterName=BenchCluster
brokerName=bench-a
brokerId=0
brokerRole=ASYNC_MASTER
brokerIP1=127.0.0.1
listenPort=$brport
haListenPort=$((brport + 1))
namesrvAddr=127.0.0.1:$nsport
storePathRootDir=$dir/store
flushDiskType=$flush
autoCreateTopicEnable=true
autoCreateSubscriptionGroup=true
defaultTopicQueueNums=$QUEUES
storeBackend=$MODMQ_BACKEND
EOF
            for setting in $MODMQ_CONF; do echo "$setting" >>"$dir/broker.conf"; done
            MODMQ_LOG_DIR="$dir/logs" JAVA_HEAP_OPTS="$NAMESRV_HEAP" JAVA_OPTS="-Duser.home=$dir/home" \
                "${ON_CPU1[@]}" "$DIST/bin/mqnamesrv" -c "$dir/namesrv.conf" >"$dir/logs/namesrv.out" 2>&1 &
            ;;
        rocketmq-*)
            # scanAvailableNameSrv is a remoting-client key (NettyClientConfig). The name server's
            # client never dials name servers, so false only switches off an idle task there. On
            # the broker it must stay true (the default): the broker registers only with the name
            # servers that scan found reachable, so false would leave it unregistered.
            cat >"$dir/namesrv.properties" <<EOF
listenPort=$nsport
bindAddress=127.0.0.1
scanAvailableNameSrv=false
EOF
            cat >"$dir/broker.conf" <<EOF
brokerClusterName=BenchCluster
brokerName=bench-a
brokerId=0
brokerRole=ASYNC_MASTER
brokerIP1=127.0.0.1
brokerIP2=127.0.0.1
bindAddress=127.0.0.1
listenPort=$brport
namesrvAddr=127.0.0.1:$nsport
storePathRootDir=$dir/store
flushDiskType=$flush
autoCreateTopicEnable=true
autoCreateSubscriptionGroup=true
defaultTopicQueueNums=$QUEUES
EOF
            # shellcheck disable=SC2086
            ROCKETMQ_HOME="$dir/home" "${ON_CPU1[@]}" java $NAMESRV_HEAP -Duser.home="$dir/home" -Drocketmq.home.dir="$dir/home" \
                -cp "$lib/*" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties" \
                >"$dir/logs/namesrv.out" 2>&1 &
            ;;
    esac
    local nspid=$!
    PIDS+=("$nspid")
    wait_port "$nsport" 60 "$nspid" || die "$kind name server did not listen on $nsport (see $dir/logs)"

    # The probe retries a send every 20 ms. It is started first, and the broker is launched only once
    # the probe's client has reached the name server (its route query is the only connection there)
    # and has run PROBE_SETTLE seconds more: the probe's own JVM and client start-up must neither be
    # counted nor compete with the broker's start for the CPU.
    "${ON_CPU1[@]}" java -Drocketmq.log.root="$dir/logs/client" -Duser.home="$dir/home" -jar "$JAR" probe \
        -n "127.0.0.1:$nsport" -f kv --quiet --timeout "$((START_TIMEOUT + 60))" >"$dir/probe.out" 2>"$dir/logs/probe.err" &
    local probe=$!
    PIDS+=("$probe")
    wait_client "$nsport" 60 "$probe" || log "$kind: the probe did not reach the name server within 60 s"
    sleep "$PROBE_SETTLE"
    local launched
    launched=$(now_ms)
    case "$kind" in
        modmq)
            MODMQ_LOG_DIR="$dir/logs" JAVA_HEAP_OPTS="$MODMQ_HEAP" JAVA_OPTS="-Duser.home=$dir/home $MODMQ_EXTRA_OPTS" \
                "${ON_CPU0[@]}" "$DIST/bin/mqbroker" -c "$dir/broker.conf" >"$dir/logs/broker.out" 2>&1 &
            ;;
        rocketmq-*)
            # shellcheck disable=SC2086
            ROCKETMQ_HOME="$dir/home" "${ON_CPU0[@]}" java $RMQ_HEAP $RMQ_EXTRA_OPTS -Duser.home="$dir/home" -Drocketmq.home.dir="$dir/home" \
                -cp "$lib/*" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" \
                >"$dir/logs/broker.out" 2>&1 &
            ;;
    esac
    local brpid=$!
    PIDS+=("$brpid")
    if ! wait "$probe"; then
        forget_pid "$probe"
        log "$kind: no send succeeded within ${START_TIMEOUT}s; see $dir/logs"
        tail -n 5 "$dir/logs/probe.err" >&2 || true
        return 1
    fi
    forget_pid "$probe"
    local first
    first=$(kv "$(cat "$dir/probe.out")" first_send_epoch_ms)
    NS[$kind]="127.0.0.1:$nsport"; NSPID[$kind]=$nspid; BRPID[$kind]=$brpid; BRPORT[$kind]=$brport
    TTFS[$kind]=$((first - launched))
    log "$kind ($flush): name server $nsport pid $nspid, broker $brport pid $brpid, first send after $((first - launched)) ms"
}

stop_pair() { # kind
    local ns br
    ns=${NSPID[$1]:-}; br=${BRPID[$1]:-}
    for p in $br $ns; do
        kill "$p" 2>/dev/null || true
        wait_gone "$p" 30
        forget_pid "$p"
    done
}

# ---- workloads --------------------------------------------------------------------------------
declare -A R          # R[kind|figure] = value
declare -A CPU_TICKS MOVED
CLIENT=${CLIENTS%% *} # the client line of the workload running now

settle() { # waits until the brokers and name servers running now are idle (see SETTLE_PCT), so that
    # a broker still compiling its start-up code, or one still busy after the previous workload, does
    # not take CPU from the workload about to be measured on another
    local waited=0 t0 t1 used=0 p
    while [ "$waited" -lt "$SETTLE_MAX" ]; do
        t0=0; for p in "${BRPID[@]}" "${NSPID[@]}"; do t0=$((t0 + $(cpu_ticks "$p"))); done
        sleep 1; waited=$((waited + 1))
        t1=0; for p in "${BRPID[@]}" "${NSPID[@]}"; do t1=$((t1 + $(cpu_ticks "$p"))); done
        used=$(( (t1 - t0) * 100 / CLK_TCK ))
        if [ "$used" -lt "$SETTLE_PCT" ]; then
            [ "$waited" -le 1 ] || log "brokers and name servers idle after ${waited}s"
            return 0
        fi
    done
    log "warning: brokers and name servers still used ${used}% of a core after ${SETTLE_MAX}s"
}

run_on() { # kind label bench-args...: runs one workload against kind with $CLIENT, stores its kv line in LAST
    local kind=$1 label=$2; shift 2
    local ns=${NS[$kind]} br=${BRPID[$kind]} before after line
    settle
    log "$label on $kind"
    before=$(cpu_ticks "$br")
    local out="$WORK/$kind-run.out" client sampled=""
    # shellcheck disable=SC2086
    "${ON_CPU1[@]}" java ${CLIENT_EXTRA_OPTS//%k/$kind} -Drocketmq.log.root="$WORK/client-logs" -Duser.home="$WORK/client-home" \
        -cp "$(client_cp "$CLIENT")" org.modmq.bench.BenchMain "$@" -n "$ns" -f kv >"$out" 2>>"$WORK/$kind-progress.log" &
    client=$!
    if [[ " $* " == *" -d "* ]] && [ "$DURATION" -ge 4 ]; then
        # The client's CPU, syscalls, wake-ups and its sockets' segment counters, sampled inside the
        # measured window (after JVM start-up and warm-up, before shutdown): per message at its rate.
        wait_client "${BRPORT[$kind]}" 60 "$client" || true
        sleep $(( WARMUP + 1 ))
        local t1 c1 s1 y1 t2 c2 s2 y2
        t1=$(now_ms); c1=$(cpu_ticks "$client"); s1=$(client_segments "$kind"); y1=$(syscalls "$client")
        sleep $(( DURATION - 3 ))
        t2=$(now_ms); c2=$(cpu_ticks "$client"); s2=$(client_segments "$kind"); y2=$(syscalls "$client")
        sampled="$((t2 - t1)) $((c2 - c1)) $s1 $y1 $s2 $y2"
    fi
    local waited=0
    while kill -0 "$client" 2>/dev/null && [ "$waited" -lt "$STEP_TIMEOUT" ]; do sleep 1; waited=$((waited + 1)); done
    if kill -0 "$client" 2>/dev/null; then
        kill "$client" 2>/dev/null || true
        log "$label on $kind did not end within ${STEP_TIMEOUT}s"
    fi
    wait "$client" 2>/dev/null || log "$label on $kind failed (see $WORK/$kind-progress.log)"
    line=$(tail -n 1 "$out")
    after=$(cpu_ticks "$br")
    LAST=$line
    local version
    version=$(kv "$line" client_version)
    [ -z "$version" ] || [ "$version" = "V${CLIENT//./_}" ] || log "warning: client line $CLIENT ran as $version"
    if [ -n "$sampled" ]; then
        local rate ms ticks out1 in1 out2 in2 r1 w1 v1 r2 w2 v2
        rate=$(kv "$line" msgs_per_sec)
        read -r ms ticks out1 in1 r1 w1 v1 out2 in2 r2 w2 v2 <<<"$sampled"
        R["$kind|$label client_cpu_us_per_msg"]=$(awk -v t="$ticks" -v h="$CLK_TCK" -v ms="$ms" -v r="$rate" \
            'BEGIN { if (r > 0 && ms > 0) printf "%.1f", t / h / (ms / 1000) / r * 1e6; else print "-" }')
        R["$kind|$label client_segs_out_per_msg"]=$(per_msg "$out1" "$out2" "$ms" "$rate")
        R["$kind|$label client_segs_in_per_msg"]=$(per_msg "$in1" "$in2" "$ms" "$rate")
        R["$kind|$label client_reads_per_msg"]=$(per_msg "$r1" "$r2" "$ms" "$rate")
        R["$kind|$label client_writes_per_msg"]=$(per_msg "$w1" "$w2" "$ms" "$rate")
        R["$kind|$label client_wakeups_per_msg"]=$(per_msg "$v1" "$v2" "$ms" "$rate")
    fi
    local moved
    moved=$(kv "$line" moved); moved=${moved:-0}
    CPU_TICKS[$kind]=$(( ${CPU_TICKS[$kind]:-0} + after - before ))
    MOVED[$kind]=$(( ${MOVED[$kind]:-0} + moved ))
    if [ "$moved" -gt 0 ]; then
        R["$kind|$label broker_cpu_us_per_msg"]=$(awk -v t="$((after - before))" -v h="$CLK_TCK" -v m="$moved" 'BEGIN {printf "%.1f", t / h / m * 1e6}')
    fi
}

keep() { # kind prefix keys...: copies figures of LAST into R
    local kind=$1 prefix=$2 key; shift 2
    for key in "$@"; do R["$kind|$prefix $key"]=$(kv "$LAST" "$key"); done
}

LABELS=()  # workload labels in the order they ran, for the table
ORDER=()
alternate() { # label keys-spec bench-args...: runs on every broker with every client line, rotating the order
    local base=$1 keys=$2 label kind; shift 2
    for CLIENT in $CLIENTS; do
        label=$base
        [ "$CLIENTS" = "${CLIENTS%% *}" ] || label="$base, client $CLIENT"
        [[ " ${LABELS[*]:-} " == *" $label "* ]] || LABELS+=("$label")
        for kind in "${ORDER[@]}"; do
            run_on "$kind" "$label" "$@"
            # shellcheck disable=SC2086
            keep "$kind" "$label" $keys
        done
        if [ "${#ORDER[@]}" -gt 1 ]; then ORDER=("${ORDER[@]:1}" "${ORDER[0]}"); fi
    done
}

COMMON=(-s "$SIZE" -q "$QUEUES" --quiet)
TIMED=(-w "$WARMUP" -d "$DURATION")
SEND_KEYS="msgs_per_sec mib_per_sec p50_ms p99_ms p999_ms errors"
SEND_FIGURES="msgs_per_sec p50_ms p99_ms errors broker_cpu_us_per_msg client_cpu_us_per_msg client_segs_out_per_msg client_segs_in_per_msg client_reads_per_msg client_writes_per_msg client_wakeups_per_msg"

KINDS=()
for kind in $BROKERS; do
    [ "$kind" = rocketmq ] && kind=rocketmq-5.3.3
    KINDS+=("$kind")
    case "$kind" in
        modmq) ;;
        rocketmq-*) resolve_rocketmq "$(rmq_version "$kind")" ;;
        *) die "unknown broker '$kind' in BENCH_BROKERS (modmq, rocketmq-<version>)" ;;
    esac
done
for c in $CLIENTS; do [ "$c" = 5.3.3 ] || resolve_rocketmq "$c"; done
[ "$PIN" != 1 ] || command -v taskset >/dev/null || die "BENCH_PIN=1 needs taskset"
log "mode $MODE: warm-up ${WARMUP}s, duration ${DURATION}s, drain $DRAIN_N msgs, e2e ${E2E_RATE} msg/s; brokers ${KINDS[*]}; clients $CLIENTS; pinned $PIN; temp $WORK"
has() { [[ " $1 " == *" $2 "* ]]; } # list word

# Phase 1: ASYNC_FLUSH, every broker up, workloads in rotation.
RUNNING=()
has "$PHASES" 1 && for kind in "${KINDS[@]}"; do
    if start_pair "$kind" ASYNC_FLUSH; then RUNNING+=("$kind"); else R["$kind|failed"]=1; fi
done
ORDER=("${RUNNING[@]:-}")
if [ -n "${ORDER[0]:-}" ]; then
    if has "$WORKLOADS" sync; then
        for t in $SYNC_THREADS; do
            alternate "sync send $t threads (ASYNC_FLUSH)" "$SEND_KEYS" produce -m sync -t "$t" "${COMMON[@]}" "${TIMED[@]}"
        done
    fi
    has "$WORKLOADS" async && alternate "async send, window $ASYNC_WINDOW" "$SEND_KEYS" produce -m async -t "$ASYNC_THREADS" --window "$ASYNC_WINDOW" "${COMMON[@]}" "${TIMED[@]}"
    has "$WORKLOADS" batch && alternate "batch send $BATCH x $BATCH_THREADS threads" "$SEND_KEYS" produce -m batch -t "$BATCH_THREADS" -b "$BATCH" "${COMMON[@]}" "${TIMED[@]}"
    has "$WORKLOADS" drain && alternate "consume drain $DRAIN_N" "msgs_per_sec mib_per_sec complete" consume -N "$DRAIN_N" "${COMMON[@]}"
    has "$WORKLOADS" e2e && alternate "e2e at $E2E_RATE msgs/s" "msgs_per_sec p50_ms p99_ms p999_ms lost errors" e2e -r "$E2E_RATE" "${COMMON[@]}" "${TIMED[@]}"
    for kind in "${RUNNING[@]}"; do
        br=${BRPID[$kind]}
        log "$kind broker memory at the end of phase 1: $(rss_parts "$br")"
        R["$kind|peak RSS MiB"]=$(( $(vm_hwm_kb "$br") / 1024 ))
        R["$kind|time to first send ms"]=${TTFS[$kind]}
        if [ "${MOVED[$kind]:-0}" -gt 0 ]; then
            R["$kind|broker CPU us per msg, all of phase 1"]=$(awk -v t="${CPU_TICKS[$kind]}" -v h="$CLK_TCK" -v m="${MOVED[$kind]}" 'BEGIN {printf "%.1f", t / h / m * 1e6}')
        fi
        stop_pair "$kind"
    done
fi

# Phase 2: SYNC_FLUSH, sync send only. Each broker starts a second time here (fresh store): modmq's
# launcher has the class-data sharing archive its phase-1 process recorded at exit.
RUNNING=()
has "$PHASES" 2 && for kind in "${KINDS[@]}"; do
    if start_pair "$kind" SYNC_FLUSH; then
        RUNNING+=("$kind")
        R["$kind|time to first send, 2nd start ms"]=${TTFS[$kind]}
    fi
done
ORDER=("${RUNNING[@]:-}")
if [ -n "${ORDER[0]:-}" ]; then
    alternate "sync send $THREADS threads (SYNC_FLUSH)" "$SEND_KEYS" produce -m sync -t "$THREADS" "${COMMON[@]}" "${TIMED[@]}"
    for kind in "${RUNNING[@]}"; do stop_pair "$kind"; done
fi

# ---- table ------------------------------------------------------------------------------------
FIGURES=()
for w in "${LABELS[@]}"; do
    case "$w" in
        "consume drain"*) keys="msgs_per_sec mib_per_sec complete broker_cpu_us_per_msg" ;;
        e2e*) keys="msgs_per_sec p50_ms p99_ms p999_ms lost errors broker_cpu_us_per_msg" ;;
        *) keys=$SEND_FIGURES ;;
    esac
    for k in $keys; do FIGURES+=("$w $k"); done
done
FIGURES+=("peak RSS MiB" "time to first send ms" "time to first send, 2nd start ms" "broker CPU us per msg, all of phase 1")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
OTHERS=(); for kind in "${KINDS[@]}"; do [ "$kind" = modmq ] || OTHERS+=("$kind"); done

echo
echo "mode=$MODE warmup=${WARMUP}s duration=${DURATION}s drain=$DRAIN_N e2e_rate=$E2E_RATE size=$SIZE queues=$QUEUES clients='$CLIENTS' pinned=$PIN modmq_heap='${MODMQ_HEAP:-launcher default}' rocketmq_heap='$RMQ_HEAP' modmq_backend=$MODMQ_BACKEND settle='<${SETTLE_PCT}% of a core, <= ${SETTLE_MAX}s' phases='$PHASES' workloads='$WORKLOADS' nproc=$(nproc)"
header="| figure |"; rule="|---|"
for kind in "${KINDS[@]}"; do header+=" $kind |"; rule+="---|"; done
if has "${KINDS[*]}" modmq; then for o in "${OTHERS[@]}"; do header+=" modmq / ${o#rocketmq-} |"; rule+="---|"; done; fi
echo "$header"; echo "$rule"
for f in "${FIGURES[@]}"; do
    row="| $f |"; any=""
    for kind in "${KINDS[@]}"; do v=${R["$kind|$f"]:--}; [ -n "$v" ] || v=-; [ "$v" = - ] || any=1; row+=" $v |"; done
    if has "${KINDS[*]}" modmq; then
        for o in "${OTHERS[@]}"; do row+=" $(ratio "${R["modmq|$f"]:--}" "${R["$o|$f"]:--}") |"; done
    fi
    [ -z "$any" ] || echo "$row"
done
for kind in "${KINDS[@]}"; do
    [ -z "${R["$kind|failed"]:-}" ] || echo "$kind: the broker did not take a send within ${START_TIMEOUT}s (logs: BENCH_KEEP=1)"
done
