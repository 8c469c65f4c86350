#!/usr/bin/env bash
# Side-by-side benchmark of modmq and Apache RocketMQ 5.3.3 on this machine, in one run.
#
#   bench/run-compare.sh                     # quick mode (a few minutes)
#   BENCH_MODE=full bench/run-compare.sh     # longer runs, 1 M message drain
#
# Needs: the built distribution (mvn -f mq-distribution/pom.xml package), the bench jar
# (mvn -f mq-bench/pom.xml package), Maven (to resolve RocketMQ 5.3.3 once into
# bench/rocketmq/target/lib), python3 (to find free ports), Linux /proc.
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
THREADS=${BENCH_THREADS:-16}                       # sync send threads
ASYNC_THREADS=${BENCH_ASYNC_THREADS:-2}
ASYNC_WINDOW=${BENCH_ASYNC_WINDOW:-256}            # async requests in flight
BATCH=${BENCH_BATCH:-32}
BATCH_THREADS=${BENCH_BATCH_THREADS:-4}
QUEUES=${BENCH_QUEUES:-8}
# The same heap and direct-memory limits for both brokers (modmq's launcher defaults).
HEAP=${BENCH_HEAP:--Xms64m -Xmx256m -XX:MaxDirectMemorySize=1g -XX:+UseG1GC -XX:MaxGCPauseMillis=50}
NAMESRV_HEAP=${BENCH_NAMESRV_HEAP:--Xms256m -Xmx256m}
BROKERS=${BENCH_BROKERS:-modmq rocketmq}           # subset to run, e.g. "rocketmq"
START_TIMEOUT=${BENCH_START_TIMEOUT:-120}          # seconds for a broker to take its first send
KEEP=${BENCH_KEEP:-0}                              # 1 keeps the temp folder (logs, stores)
MODMQ_EXTRA_OPTS=${BENCH_MODMQ_JAVA_OPTS:-}        # extra JVM options of the modmq broker, e.g. JFR
MODMQ_BACKEND=${BENCH_MODMQ_BACKEND:-mmap}         # modmq storeBackend: mmap or direct (O_DIRECT)
MODMQ_HEAP=${BENCH_MODMQ_HEAP:-$HEAP}              # heap options of the modmq broker alone (default: HEAP)
PHASES=${BENCH_PHASES:-1 2}                        # 1 = ASYNC_FLUSH workloads, 2 = SYNC_FLUSH sync send
WORKLOADS=${BENCH_WORKLOADS:-sync async batch drain e2e}   # phase-1 workloads to run
PROBE_SETTLE=${BENCH_PROBE_SETTLE:-1}              # seconds the probe runs before the broker is launched
RMQ_EXTRA_OPTS=${BENCH_ROCKETMQ_JAVA_OPTS:-}       # extra JVM options of the RocketMQ broker
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$(ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null | head -n 1)}
DIST=${DIST%/}
RMQ_LIB=${BENCH_ROCKETMQ_LIB:-$HERE/rocketmq/target/lib}
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
for _ in range(200):
    base = random.randint(20000, 60000)
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
    port=$(eval echo "\$BRPORT_$1")
    ss -tinH state established dst "127.0.0.1:$port" 2>/dev/null \
        | grep -o 'segs_\(out\|in\):[0-9]*' | awk -F: '$1 == "segs_out" {o += $2} $1 == "segs_in" {i += $2} END {print o + 0, i + 0}'
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

resolve_rocketmq() {
    if [ ! -f "$RMQ_LIB/rocketmq-broker-5.3.3.jar" ]; then
        log "resolving Apache RocketMQ 5.3.3 into $RMQ_LIB"
        mvn -B -q -f "$HERE/rocketmq/pom.xml" dependency:copy-dependencies -DoutputDirectory="$RMQ_LIB" >&2
    fi
}

# ---- broker start/stop ------------------------------------------------------------------------
# start_pair KIND FLUSH: starts KIND's name server and broker under $WORK/KIND-FLUSH; sets
# NS_<KIND>, NSPID_<KIND>, BRPID_<KIND>, TTFS_<KIND> (ms from broker launch to first stored send).
start_pair() {
    local kind=$1 flush=$2 dir="$WORK/$1-$2" nsport brport
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
            MODMQ_LOG_DIR="$dir/logs" JAVA_HEAP_OPTS="$NAMESRV_HEAP" JAVA_OPTS="-Duser.home=$dir/home" \
                "$DIST/bin/mqnamesrv" -c "$dir/namesrv.conf" >"$dir/logs/namesrv.out" 2>&1 &
            ;;
        rocketmq)
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
            ROCKETMQ_HOME="$dir/home" java $NAMESRV_HEAP -Duser.home="$dir/home" -Drocketmq.home.dir="$dir/home" \
                -cp "$RMQ_LIB/*" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties" \
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
    java -Drocketmq.log.root="$dir/logs/client" -Duser.home="$dir/home" -jar "$JAR" probe \
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
                "$DIST/bin/mqbroker" -c "$dir/broker.conf" >"$dir/logs/broker.out" 2>&1 &
            ;;
        rocketmq)
            # shellcheck disable=SC2086
            ROCKETMQ_HOME="$dir/home" java $HEAP $RMQ_EXTRA_OPTS -Duser.home="$dir/home" -Drocketmq.home.dir="$dir/home" \
                -cp "$RMQ_LIB/*" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" \
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
    printf -v "NS_$kind" '%s' "127.0.0.1:$nsport"
    printf -v "NSPID_$kind" '%s' "$nspid"
    printf -v "BRPID_$kind" '%s' "$brpid"
    printf -v "BRPORT_$kind" '%s' "$brport"
    printf -v "TTFS_$kind" '%s' "$((first - launched))"
    log "$kind ($flush): name server $nsport pid $nspid, broker $brport pid $brpid, first send after $((first - launched)) ms"
}

stop_pair() { # kind
    local ns br
    ns=$(eval echo "\${NSPID_$1:-}"); br=$(eval echo "\${BRPID_$1:-}")
    for p in $br $ns; do
        kill "$p" 2>/dev/null || true
        wait_gone "$p" 30
        forget_pid "$p"
    done
}

# ---- workloads --------------------------------------------------------------------------------
declare -A R      # R[kind|figure] = value
CPU_TICKS_modmq=0; CPU_TICKS_rocketmq=0; MOVED_modmq=0; MOVED_rocketmq=0

run_on() { # kind label bench-args...: runs one workload against kind, stores its kv line in LAST
    local kind=$1 label=$2; shift 2
    local ns br before after line
    ns=$(eval echo "\$NS_$kind"); br=$(eval echo "\$BRPID_$kind")
    log "$label on $kind"
    before=$(cpu_ticks "$br")
    local out="$WORK/$kind-run.out" client sampled=""
    timeout "$STEP_TIMEOUT" java -Drocketmq.log.root="$WORK/client-logs" -Duser.home="$WORK/client-home" \
        -jar "$JAR" "$@" -n "$ns" -f kv >"$out" 2>>"$WORK/$kind-progress.log" &
    client=$!
    if [[ " $* " == *" -d "* ]] && [ "$DURATION" -ge 4 ]; then
        # The client's CPU and its sockets' segment counters, sampled inside the measured window
        # (after JVM start-up and warm-up, before shutdown): per message at the window's rate.
        sleep $(( WARMUP + 2 ))
        local t1 c1 s1 t2 c2 s2
        local jvm
        jvm=$(ps -o pid= --ppid "$client" | head -n 1 | tr -d ' ') # timeout's child: the client JVM
        t1=$(now_ms); c1=$(cpu_ticks "$jvm"); s1=$(client_segments "$kind"); y1=$(syscalls "$jvm")
        sleep $(( DURATION - 3 ))
        t2=$(now_ms); c2=$(cpu_ticks "$jvm"); s2=$(client_segments "$kind"); y2=$(syscalls "$jvm")
        sampled="$((t2 - t1)) $((c2 - c1)) $s1 $s2 $y1 $y2"
    fi
    if ! wait "$client"; then
        log "$label on $kind failed (see $WORK/$kind-progress.log)"
    fi
    line=$(tail -n 1 "$out")
    after=$(cpu_ticks "$br")
    LAST=$line
    if [ -n "$sampled" ]; then
        local rate
        rate=$(kv "$line" msgs_per_sec)
        read -r ms ticks out1 in1 out2 in2 r1 w1 v1 r2 w2 v2 <<<"$sampled"
        R["$kind|$label client_wakeups_per_msg"]=$(per_msg "$v1" "$v2" "$ms" "$rate")
        R["$kind|$label client_reads_per_msg"]=$(per_msg "$r1" "$r2" "$ms" "$rate")
        R["$kind|$label client_writes_per_msg"]=$(per_msg "$w1" "$w2" "$ms" "$rate")
        R["$kind|$label client_cpu_us_per_msg"]=$(awk -v t="$ticks" -v h="$CLK_TCK" -v ms="$ms" -v r="$rate" \
            'BEGIN { if (r > 0 && ms > 0) printf "%.1f", t / h / (ms / 1000) / r * 1e6; else print "-" }')
        R["$kind|$label client_segs_out_per_msg"]=$(awk -v a="$out1" -v b="$out2" -v ms="$ms" -v r="$rate" \
            'BEGIN { if (r > 0 && ms > 0) printf "%.2f", (b - a) / (ms / 1000) / r; else print "-" }')
        R["$kind|$label client_segs_in_per_msg"]=$(awk -v a="$in1" -v b="$in2" -v ms="$ms" -v r="$rate" \
            'BEGIN { if (r > 0 && ms > 0) printf "%.2f", (b - a) / (ms / 1000) / r; else print "-" }')
    fi
    local moved
    moved=$(kv "$line" moved); moved=${moved:-0}
    eval "CPU_TICKS_$kind=\$(( CPU_TICKS_$kind + after - before ))"
    eval "MOVED_$kind=\$(( MOVED_$kind + moved ))"
    if [ "$moved" -gt 0 ]; then
        R["$kind|$label cpu_s_per_1M"]=$(awk -v t="$((after - before))" -v h="$CLK_TCK" -v m="$moved" 'BEGIN {printf "%.2f", t / h / m * 1e6}')
    fi
}

keep() { # kind prefix keys...: copies figures of LAST into R
    local kind=$1 prefix=$2 key; shift 2
    for key in "$@"; do R["$kind|$prefix $key"]=$(kv "$LAST" "$key"); done
}

ORDER=($BROKERS)
alternate() { # label keys-spec -- bench-args: runs on every broker, flipping the order each call
    local label=$1 keys=$2; shift 2
    local kinds=("${ORDER[@]}")
    for kind in "${kinds[@]}"; do
        run_on "$kind" "$label" "$@"
        # shellcheck disable=SC2086
        keep "$kind" "$label" $keys
    done
    if [ "${#ORDER[@]}" -eq 2 ]; then ORDER=("${ORDER[1]}" "${ORDER[0]}"); fi
}

COMMON=(-s "$SIZE" -q "$QUEUES" --quiet)
TIMED=(-w "$WARMUP" -d "$DURATION")
SEND_KEYS="msgs_per_sec mib_per_sec p50_ms p99_ms p999_ms errors"

[[ " $BROKERS " == *" rocketmq "* ]] && resolve_rocketmq
log "mode $MODE: warm-up ${WARMUP}s, duration ${DURATION}s, drain $DRAIN_N msgs, e2e ${E2E_RATE} msg/s; temp $WORK"
has() { [[ " $1 " == *" $2 "* ]]; } # list word

# Phase 1: ASYNC_FLUSH, both brokers up, workloads in alternation.
RUNNING=()
has "$PHASES" 1 && for kind in $BROKERS; do
    if start_pair "$kind" ASYNC_FLUSH; then RUNNING+=("$kind"); else R["$kind|failed"]=1; fi
done
ORDER=("${RUNNING[@]:-}")
if [ -n "${ORDER[0]:-}" ]; then
    has "$WORKLOADS" sync && alternate "sync send (ASYNC_FLUSH)" "$SEND_KEYS" produce -m sync -t "$THREADS" "${COMMON[@]}" "${TIMED[@]}"
    has "$WORKLOADS" async && alternate "async send" "$SEND_KEYS" produce -m async -t "$ASYNC_THREADS" --window "$ASYNC_WINDOW" "${COMMON[@]}" "${TIMED[@]}"
    has "$WORKLOADS" batch && alternate "batch send" "$SEND_KEYS" produce -m batch -t "$BATCH_THREADS" -b "$BATCH" "${COMMON[@]}" "${TIMED[@]}"
    has "$WORKLOADS" drain && alternate "consume drain" "msgs_per_sec mib_per_sec complete" consume -N "$DRAIN_N" "${COMMON[@]}"
    has "$WORKLOADS" e2e && alternate "e2e" "msgs_per_sec p50_ms p99_ms p999_ms lost errors" e2e -r "$E2E_RATE" "${COMMON[@]}" "${TIMED[@]}"
    for kind in "${RUNNING[@]}"; do
        br=$(eval echo "\$BRPID_$kind")
        log "$kind broker memory at the end of phase 1: $(rss_parts "$br")"
        R["$kind|peak RSS MiB"]=$(( $(vm_hwm_kb "$br") / 1024 ))
        R["$kind|time to first send ms"]=$(eval echo "\$TTFS_$kind")
        moved=$(eval echo "\$MOVED_$kind"); ticks=$(eval echo "\$CPU_TICKS_$kind")
        if [ "$moved" -gt 0 ]; then
            R["$kind|CPU s per 1M msgs"]=$(awk -v t="$ticks" -v h="$CLK_TCK" -v m="$moved" 'BEGIN {printf "%.2f", t / h / m * 1e6}')
        fi
        stop_pair "$kind"
    done
fi

# Phase 2: SYNC_FLUSH, sync send only. Each broker starts a second time here (fresh store): modmq's
# launcher has the class-data sharing archive its phase-1 process recorded at exit.
RUNNING=()
has "$PHASES" 2 && for kind in $BROKERS; do
    if start_pair "$kind" SYNC_FLUSH; then
        RUNNING+=("$kind")
        R["$kind|time to first send, 2nd start ms"]=$(eval echo "\$TTFS_$kind")
    fi
done
ORDER=("${RUNNING[@]:-}")
if [ -n "${ORDER[0]:-}" ]; then
    alternate "sync send (SYNC_FLUSH)" "$SEND_KEYS" produce -m sync -t "$THREADS" "${COMMON[@]}" "${TIMED[@]}"
    for kind in "${RUNNING[@]}"; do stop_pair "$kind"; done
fi

# ---- table ------------------------------------------------------------------------------------
FIGURES=()
for w in "sync send (ASYNC_FLUSH)" "sync send (SYNC_FLUSH)" "async send" "batch send"; do
    for k in msgs_per_sec mib_per_sec p50_ms p99_ms p999_ms errors cpu_s_per_1M client_cpu_us_per_msg \
        client_segs_out_per_msg client_segs_in_per_msg client_reads_per_msg client_writes_per_msg client_wakeups_per_msg; do FIGURES+=("$w $k"); done
done
FIGURES+=("consume drain msgs_per_sec" "consume drain mib_per_sec" "consume drain complete" "consume drain cpu_s_per_1M")
for k in msgs_per_sec p50_ms p99_ms p999_ms lost errors cpu_s_per_1M; do FIGURES+=("e2e $k"); done
FIGURES+=("peak RSS MiB" "time to first send ms" "time to first send, 2nd start ms" "CPU s per 1M msgs")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }

echo
echo "mode=$MODE warmup=${WARMUP}s duration=${DURATION}s drain=$DRAIN_N e2e_rate=$E2E_RATE size=$SIZE heap='$HEAP' modmq_heap='$MODMQ_HEAP' modmq_backend=$MODMQ_BACKEND phases='$PHASES' workloads='$WORKLOADS' nproc=$(nproc)"
printf '| %-40s | %12s | %12s | %8s |\n' "figure" "modmq" "RocketMQ" "ratio"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..42})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..10})"
for f in "${FIGURES[@]}"; do
    m=${R["modmq|$f"]:--}; r=${R["rocketmq|$f"]:--}
    [ -n "$m" ] || m=-; [ -n "$r" ] || r=-
    printf '| %-40s | %12s | %12s | %8s |\n' "$f" "$m" "$r" "$(ratio "$m" "$r")"
done
[ -z "${R["modmq|failed"]:-}" ] || echo "modmq: the broker did not take a send within ${START_TIMEOUT}s (logs: BENCH_KEEP=1)"
[ -z "${R["rocketmq|failed"]:-}" ] || echo "RocketMQ: the broker did not take a send within ${START_TIMEOUT}s (logs: BENCH_KEEP=1)"
