#!/usr/bin/env bash
# Delayed and transactional message throughput, modmq next to Apache RocketMQ 5.3.3, in one run.
#
#   bench/run-semantics.sh                       # one round: modmq, then RocketMQ (about 6 minutes)
#   BENCH_ROUNDS=2 bench/run-semantics.sh        # modmq, RocketMQ, modmq, RocketMQ
#
# For every round and product it starts a fresh name server and broker (ASYNC_FLUSH, fresh store) on
# 127.0.0.1 and free ports, runs `mq-bench delay` and then `mq-bench transaction` against it, and stops
# both. Prints one table: figure | each product and round | ratio of the means modmq/RocketMQ.
#
# Needs: the bench jar (mvn -pl mq-bench -am package -DskipTests), for modmq the built distribution
# (mvn -pl mq-distribution -am package -DskipTests), Maven (resolves RocketMQ 5.3.3 once into
# bench/rocketmq/target/lib), python3 (free ports), Linux /proc. Every file goes under one temp folder;
# only the processes this script starts are signalled, by PID. See bench/README.md.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)

# ---- configuration (environment) ---------------------------------------------------------------
WARMUP=${BENCH_WARMUP:-3}                          # seconds of load before measuring
DURATION=${BENCH_DURATION:-20}                     # measured seconds per workload
THREADS=${BENCH_THREADS:-16}                       # sync send threads of both workloads
SIZE=${BENCH_SIZE:-1024}
QUEUES=${BENCH_QUEUES:-8}
LEVEL=${BENCH_DELAY_LEVEL:-1}                      # delay level (RocketMQ's default table: 1 = 1 s)
DELAY_DRAIN=${BENCH_DELAY_DRAIN:-30}               # seconds beyond the level's delay for the last deliveries
TX_UNKNOWN=${BENCH_TX_UNKNOWN:-0}                  # share of local transactions answering UNKNOW
TX_DRAIN=${BENCH_TX_DRAIN:-60}                     # seconds after the load for commits and check-backs
ROUNDS=${BENCH_ROUNDS:-1}                          # 1: A B; 2: A B A B
BROKERS=${BENCH_BROKERS:-modmq rocketmq}
START_TIMEOUT=${BENCH_START_TIMEOUT:-120}          # seconds for a process to listen
KEEP=${BENCH_KEEP:-0}                              # 1 keeps the temp folder (logs, stores)
# Apache RocketMQ as its launchers (runbroker.sh, runserver.sh) shape the JVM on JDK 9+ (G1, pre-touched
# heap), with 2 GiB of heap for the broker instead of 8 and 1 GiB for the name server instead of 4.
# modmq runs with its launcher's defaults.
RMQ_G1="-XX:+UseG1GC -XX:G1HeapRegionSize=16m -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30 -XX:SoftRefLRUPolicyMSPerMB=0"
RMQ_BROKER_OPTS=${BENCH_ROCKETMQ_BROKER_OPTS:--server -Xms2g -Xmx2g $RMQ_G1 -XX:-OmitStackTraceInFastThrow -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=15g -XX:-UseLargePages}
RMQ_NAMESRV_OPTS=${BENCH_ROCKETMQ_NAMESRV_OPTS:--server -Xms1g -Xmx1g -XX:MetaspaceSize=128m -XX:MaxMetaspaceSize=320m $RMQ_G1 -XX:-OmitStackTraceInFastThrow -XX:-UseLargePages}
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$( (ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null || true) | head -n 1)}
DIST=${DIST%/}
RMQ_LIB=${BENCH_ROCKETMQ_LIB:-$HERE/rocketmq/target/lib}
# Level 1 waits 1 s; a longer level needs its delay on top (mq-bench waits for it, so must timeout).
STEP_TIMEOUT=$(( WARMUP + DURATION + 60 + (DELAY_DRAIN > TX_DRAIN ? DELAY_DRAIN : TX_DRAIN) + 180 ))

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$JAR" ] || die "no bench jar at $JAR (mvn -B -pl mq-bench -am package -DskipTests)"
[ -r /proc/self/status ] || die "needs Linux /proc"
command -v python3 >/dev/null || die "needs python3 (free ports)"
command -v timeout >/dev/null || die "needs timeout (coreutils)"
case "$ROUNDS" in 1|2|3) ;; *) die "BENCH_ROUNDS must be 1, 2 or 3" ;; esac
[ "$LEVEL" -ge 1 ] && [ "$LEVEL" -le 3 ] || die "BENCH_DELAY_LEVEL must be 1 to 3 here (1 s, 5 s, 10 s): the run is bounded"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-semantics.XXXXXX")
PIDS=()
# Signals go only to processes this script started and that are still its children.
ours() { [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ]; }
stop_pids() { # pids...: SIGTERM, SIGKILL after 30 s
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

# ---- helpers ----------------------------------------------------------------------------------
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

wait_port() { # port seconds pid: until 127.0.0.1:port accepts; fails if the process exits first
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
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; } # comm is "java": no spaces
CLK_TCK=$(getconf CLK_TCK)

resolve_rocketmq() {
    if [ ! -f "$RMQ_LIB/rocketmq-broker-5.3.3.jar" ]; then
        log "resolving Apache RocketMQ 5.3.3 into $RMQ_LIB"
        mvn -B -q -f "$HERE/rocketmq/pom.xml" dependency:copy-dependencies -DoutputDirectory="$RMQ_LIB" >&2
    fi
}

# ---- one broker -------------------------------------------------------------------------------
# start_pair kind dir: a name server, then a broker; sets NS, BRPID, PAIR_PIDS. Returns 1 if either fails.
start_pair() {
    local kind=$1 dir=$2 nsport brport pid
    read -r nsport brport <<<"$(free_ports 2)"
    [ -n "${brport:-}" ] || die "no free ports found"
    mkdir -p "$dir/home" "$dir/store"
    NS="127.0.0.1:$nsport"; PAIR_PIDS=()
    cat >"$dir/broker.conf" <<EOF
brokerClusterName=BenchCluster
brokerName=bench-a
brokerId=0
brokerRole=ASYNC_MASTER
brokerIP1=127.0.0.1
listenPort=$brport
namesrvAddr=$NS
storePathRootDir=$dir/store
flushDiskType=ASYNC_FLUSH
autoCreateTopicEnable=true
autoCreateSubscriptionGroup=true
defaultTopicQueueNums=$QUEUES
EOF
    case "$kind" in
        modmq)
            [ -x "${DIST:-/nonexistent}/bin/mqbroker" ] || die "no modmq distribution at '${DIST:-mq-distribution/target/modmq-*}'"
            printf 'listenPort=%s\nbindAddress=127.0.0.1\n' "$nsport" >"$dir/namesrv.conf"
            printf 'haListenPort=%s\n' $((brport + 1)) >>"$dir/broker.conf"
            MODMQ_LOG_DIR="$dir" JAVA_OPTS="-Duser.home=$dir/home" \
                "$DIST/bin/mqnamesrv" -c "$dir/namesrv.conf" >"$dir/namesrv.out" 2>&1 &
            ;;
        rocketmq)
            # scanAvailableNameSrv: false on the name server only, never on the broker (bench/README.md).
            printf 'listenPort=%s\nbindAddress=127.0.0.1\nscanAvailableNameSrv=false\n' "$nsport" >"$dir/namesrv.properties"
            printf 'brokerIP2=127.0.0.1\nbindAddress=127.0.0.1\n' >>"$dir/broker.conf"
            # shellcheck disable=SC2086
            ROCKETMQ_HOME="$dir/home" java $RMQ_NAMESRV_OPTS -Duser.home="$dir/home" -Drocketmq.home.dir="$dir/home" \
                -cp "$RMQ_LIB/*" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties" \
                >"$dir/namesrv.out" 2>&1 &
            ;;
    esac
    pid=$!; PIDS+=("$pid"); PAIR_PIDS+=("$pid")
    wait_port "$nsport" 60 "$pid" || { log "$kind: name server did not listen on $nsport"; tail -n 5 "$dir/namesrv.out" >&2; return 1; }
    case "$kind" in
        modmq)
            MODMQ_LOG_DIR="$dir" JAVA_OPTS="-Duser.home=$dir/home" \
                "$DIST/bin/mqbroker" -c "$dir/broker.conf" >"$dir/broker.out" 2>&1 &
            ;;
        rocketmq)
            # shellcheck disable=SC2086
            ROCKETMQ_HOME="$dir/home" java $RMQ_BROKER_OPTS -Duser.home="$dir/home" -Drocketmq.home.dir="$dir/home" \
                -cp "$RMQ_LIB/*" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" >"$dir/broker.out" 2>&1 &
            ;;
    esac
    pid=$!; PIDS+=("$pid"); PAIR_PIDS+=("$pid"); BRPID=$pid
    wait_port "$brport" "$START_TIMEOUT" "$pid" || { log "$kind: broker did not listen on $brport"; tail -n 5 "$dir/broker.out" >&2; return 1; }
    log "$kind: name server $nsport, broker $brport (pid $BRPID)"
}

stop_pair() {
    local keep=() p q
    stop_pids "${PAIR_PIDS[@]}"
    for p in "${PIDS[@]}"; do
        for q in "${PAIR_PIDS[@]}"; do [ "$p" = "$q" ] && continue 2; done
        keep+=("$p")
    done
    PIDS=("${keep[@]:-}"); [ -n "${PIDS[0]:-}" ] || PIDS=()
    PAIR_PIDS=()
}

# ---- workloads --------------------------------------------------------------------------------
declare -A R       # R[kind|round|figure] = value
DELAY_KEYS="msgs_per_sec p50_ms p99_ms latenessP50Ms latenessP99Ms latenessMaxMs early sent lost duplicates unexpected errors"
TX_KEYS="msgs_per_sec p50_ms p99_ms sent lost duplicates unexpected unknownAnswers checkBacks errors"

run_workload() { # kind round dir name keys bench-args...
    local kind=$1 round=$2 dir=$3 name=$4 keys=$5 line before after moved rc=0 key; shift 5
    log "$name on $kind (round $round)"
    before=$(cpu_ticks "$BRPID")
    line=$(timeout "$STEP_TIMEOUT" java -Drocketmq.log.root="$dir/client" -Duser.home="$dir/client" -jar "$JAR" "$@" \
        -n "$NS" -s "$SIZE" -q "$QUEUES" -w "$WARMUP" -d "$DURATION" -f kv --quiet 2>>"$dir/bench.err" | tail -n 1) || rc=$?
    after=$(cpu_ticks "$BRPID")
    [ "$rc" -eq 0 ] || log "$name on $kind: mq-bench exited with $rc (stderr: $dir/bench.err)"
    [ -n "$line" ] || { tail -n 5 "$dir/bench.err" >&2 || true; return 0; }
    LINES+=("kind=$kind round=$round $line")
    for key in $keys; do R["$kind|$round|$name $key"]=$(kv "$line" "$key"); done
    moved=$(kv "$line" moved); moved=${moved:-0}
    if [ "$moved" -gt 0 ]; then
        R["$kind|$round|$name cpu_s_per_1M"]=$(awk -v t="$((after - before))" -v h="$CLK_TCK" -v m="$moved" 'BEGIN {printf "%.2f", t / h / m * 1e6}')
    fi
    log "$name on $kind: $(kv "$line" msgs_per_sec) msgs/s, lost $(kv "$line" lost), duplicates $(kv "$line" duplicates)"
}

for kind in $BROKERS; do
    case "$kind" in
        modmq) ;;
        rocketmq) resolve_rocketmq ;;
        *) die "unknown broker $kind (modmq or rocketmq)" ;;
    esac
done
LINES=()
log "warm-up ${WARMUP}s, duration ${DURATION}s, threads $THREADS, level $LEVEL, unknown $TX_UNKNOWN, rounds $ROUNDS; temp $WORK"
for ((round = 1; round <= ROUNDS; round++)); do
    for kind in $BROKERS; do
        dir="$WORK/$kind-$round"
        if start_pair "$kind" "$dir"; then
            run_workload "$kind" "$round" "$dir" delay "$DELAY_KEYS" delay -t "$THREADS" -l "$LEVEL" --drain "$DELAY_DRAIN"
            run_workload "$kind" "$round" "$dir" transaction "$TX_KEYS" transaction -t "$THREADS" \
                --unknown-fraction "$TX_UNKNOWN" --drain "$TX_DRAIN"
        else
            R["$kind|$round|failed"]=1
        fi
        stop_pair
        [ "$KEEP" = 1 ] || rm -rf "$dir/store"
    done
done

# ---- table ------------------------------------------------------------------------------------
FIGURES=()
for k in $DELAY_KEYS cpu_s_per_1M; do FIGURES+=("delay $k"); done
for k in $TX_KEYS cpu_s_per_1M; do FIGURES+=("transaction $k"); done
mean() { # kind figure: mean over the rounds that have a number
    local kind=$1 f=$2 r vals=()
    for ((r = 1; r <= ROUNDS; r++)); do vals+=("${R["$kind|$r|$f"]:-}"); done
    printf '%s\n' "${vals[@]}" | awk '/^[0-9.]+$/ {s += $1; n++} END {if (n) printf "%.4f", s / n; else print "-"}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }

echo
echo "warmup=${WARMUP}s duration=${DURATION}s threads=$THREADS size=$SIZE queues=$QUEUES level=$LEVEL tx_unknown=$TX_UNKNOWN rounds=$ROUNDS flush=ASYNC_FLUSH rocketmq_broker_opts='$RMQ_BROKER_OPTS' nproc=$(nproc)"
header="| $(printf '%-34s' figure) |"; sep="|$(printf -- '-%.0s' {1..36})|"
for ((round = 1; round <= ROUNDS; round++)); do
    for kind in $BROKERS; do
        label=$kind; [ "$kind" = rocketmq ] && label="RocketMQ"
        [ "$ROUNDS" -eq 1 ] || label="$label #$round"
        header+=" $(printf '%12s' "$label") |"; sep+="$(printf -- '-%.0s' {1..14})|"
    done
done
header+=" $(printf '%8s' ratio) |"; sep+="$(printf -- '-%.0s' {1..10})|"
echo "$header"; echo "$sep"
for f in "${FIGURES[@]}"; do
    out="| $(printf '%-34s' "$f") |"
    for ((round = 1; round <= ROUNDS; round++)); do
        for kind in $BROKERS; do v=${R["$kind|$round|$f"]:-}; out+=" $(printf '%12s' "${v:--}") |"; done
    done
    out+=" $(printf '%8s' "$(ratio "$(mean modmq "$f")" "$(mean rocketmq "$f")")") |"
    echo "$out"
done
for ((round = 1; round <= ROUNDS; round++)); do
    for kind in $BROKERS; do
        [ -z "${R["$kind|$round|failed"]:-}" ] || echo "$kind round $round: did not start (logs: BENCH_KEEP=1)"
    done
done
echo
for line in "${LINES[@]:-}"; do [ -z "$line" ] || echo "$line"; done
