#!/usr/bin/env bash
# Failover of a three-broker set in controller mode, modmq next to Apache RocketMQ 5.3.3, in one run.
#
#   bench/run-failover.sh                         # quick mode (about 15 minutes with both products)
#   BENCH_MODE=full bench/run-failover.sh         # longer load, 5 min false-election watch
#   BENCH_PRODUCTS=rocketmq bench/run-failover.sh # one side only
#
# For every scenario and product it starts a fresh cluster: one name server with an embedded controller
# and three brokers of one broker set (enableControllerMode, allAckInSyncStateSet=true), all on
# 127.0.0.1 and free ports, then runs `mq-bench failover` once (it waits until the set is healthy, puts a
# sync-send load on it, faults the master and reads the topic back), and stops the cluster. Scenarios:
# SIGKILL with the producer's default route poll (30 s) and with 1 s, SIGSTOP then SIGCONT, and a run
# without a fault that counts master changes. Prints one table and one kv line per run.
#
# Needs: the bench jar (mvn -pl mq-bench -am package -DskipTests), for modmq the built distribution,
# Maven (resolves RocketMQ 5.3.3 once into bench/rocketmq/target/lib), python3 (free ports), Linux.
# Every file goes under one temp folder; only the processes this script starts are signalled, by PID.
# See bench/README.md ("Failover") for the settings and the figures.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/.." && pwd -P)

# ---- configuration (environment) ---------------------------------------------------------------
MODE=${BENCH_MODE:-quick}
case "$MODE" in
    quick) d_warmup=5; d_nofault=30; d_scenarios="kill:30000 kill:1000 stop:1000 none" ;;
    full)  d_warmup=10; d_nofault=300; d_scenarios="kill:30000 kill:1000 stop:1000 stop:30000 none" ;;
    *) echo "BENCH_MODE must be quick or full" >&2; exit 2 ;;
esac
PRODUCTS=${BENCH_PRODUCTS:-modmq rocketmq}         # which products, e.g. "rocketmq"
MODMQ_HA=${BENCH_MODMQ_HA:-pull push}              # modmq haStrategy values, one column each
SCENARIOS=${BENCH_SCENARIOS:-$d_scenarios}         # fault:pollNameServerInterval (ms); "none" = no fault
WARMUP=${BENCH_WARMUP:-$d_warmup}                  # seconds of load before the fault
AFTER_KILL=${BENCH_AFTER_KILL:-15}                 # seconds of load after SIGKILL, plus the poll interval
AFTER_STOP=${BENCH_AFTER_STOP:-35}                 # seconds of load after SIGSTOP, plus the poll interval
NOFAULT=${BENCH_NOFAULT_DURATION:-$d_nofault}      # seconds of load of the run without a fault
CONT_AFTER_MS=${BENCH_CONT_AFTER_MS:-2000}         # SIGCONT this long after the new master shows up
THREADS=${BENCH_THREADS:-4}                        # sync send threads
SIZE=${BENCH_SIZE:-1024}
QUEUES=${BENCH_QUEUES:-8}
ROUTE_POLL_MS=${BENCH_ROUTE_POLL_MS:-5}            # name-server poll of the fault runs
NOFAULT_ROUTE_POLL_MS=${BENCH_NOFAULT_ROUTE_POLL_MS:-100}
FLUSH=${BENCH_FLUSH:-ASYNC_FLUSH}
# Apache RocketMQ as its launchers (runbroker.sh, runserver.sh) shape the JVM on JDK 9+, with 2 GiB of
# heap per broker instead of 8 and 1 GiB for the name server instead of 4.
RMQ_G1="-XX:+UseG1GC -XX:G1HeapRegionSize=16m -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30 -XX:SoftRefLRUPolicyMSPerMB=0"
RMQ_BROKER_OPTS=${BENCH_ROCKETMQ_BROKER_OPTS:--server -Xms2g -Xmx2g $RMQ_G1 -XX:-OmitStackTraceInFastThrow -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=15g -XX:-UseLargePages}
RMQ_NAMESRV_OPTS=${BENCH_ROCKETMQ_NAMESRV_OPTS:--server -Xms1g -Xmx1g -XX:MetaspaceSize=128m -XX:MaxMetaspaceSize=320m $RMQ_G1 -XX:-OmitStackTraceInFastThrow -XX:-UseLargePages}
MODMQ_HEAP=${BENCH_MODMQ_HEAP:-}                   # empty: modmq's launcher defaults
MODMQ_BROKER_OPTS=${BENCH_MODMQ_BROKER_JAVA_OPTS:-}  # extra JVM options of modmq's brokers (a profiler, -Xlog)
MODMQ_NAMESRV_OPTS=${BENCH_MODMQ_NAMESRV_JAVA_OPTS:-} # and of its name server with the controller
START_TIMEOUT=${BENCH_START_TIMEOUT:-120}          # seconds for a process to listen, and for the set to be healthy
KEEP=${BENCH_KEEP:-0}                              # 1 keeps the temp folder (logs, stores)
JAR=${BENCH_JAR:-$ROOT/mq-bench/target/mq-bench.jar}
DIST=${MODMQ_DIST:-$( (ls -d "$ROOT"/mq-distribution/target/modmq-*/ 2>/dev/null || true) | head -n 1)}
DIST=${DIST%/}
RMQ_LIB=${BENCH_ROCKETMQ_LIB:-$HERE/rocketmq/target/lib}
REJOIN_TIMEOUT=60
WHY=
VERIFY_TIMEOUT=120

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$JAR" ] || die "no bench jar at $JAR (mvn -B -pl mq-bench -am package -DskipTests)"
[ -r /proc/self/status ] || die "needs Linux /proc"
command -v python3 >/dev/null || die "needs python3 (free ports)"
command -v timeout >/dev/null || die "needs timeout (coreutils)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/modmq-failover.XXXXXX")
PIDS=()
# Signals go only to processes this script started and that are still its children: a PID that a
# fault ended may have been reused by the time the script cleans up.
ours() { [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$$" ]; }
stop_pids() { # pids...: SIGCONT (a stopped JVM cannot run its shutdown), SIGTERM, SIGKILL after 30 s
    local pid i
    for pid in "$@"; do ours "$pid" && kill -CONT "$pid" 2>/dev/null && kill "$pid" 2>/dev/null || true; done
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

resolve_rocketmq() {
    if [ ! -f "$RMQ_LIB/rocketmq-controller-5.3.3.jar" ]; then
        log "resolving Apache RocketMQ 5.3.3 into $RMQ_LIB"
        mvn -B -q -f "$HERE/rocketmq/pom.xml" dependency:copy-dependencies -DoutputDirectory="$RMQ_LIB" >&2
    fi
}

mem_available_mib() { awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo; }

heap_mib() { # JVM options: the -Xmx value in MiB (0 if none)
    local x
    x=$(tr ' ' '\n' <<<"$1" | sed -n 's/^-Xmx//p' | tail -n 1)
    case "$x" in
        *[gG]) echo $(( ${x%[gG]} * 1024 )) ;;
        *[mM]) echo "${x%[mM]}" ;;
        "") echo 0 ;;
        *) echo $(( x / 1048576 )) ;;
    esac
}

# ---- one cluster ------------------------------------------------------------------------------
# start_cluster product dir: name server + controller, then three brokers one after the other (the
# first to register becomes master). Sets NS, CTL, BROKER_PIDS ("addr=pid" words), CLUSTER_PIDS.
# Returns 1 (after logging why) when the product cannot run here.
start_cluster() {
    local product=$1 dir=$2 kind=${1%%-*} ha=${1#*-} nsport ctlport b1 b2 b3 i port pid conf
    read -r nsport ctlport b1 b2 b3 <<<"$(free_ports 5)"
    [ -n "${b3:-}" ] || die "no free ports found"
    mkdir -p "$dir/ns/home" "$dir/ctl"
    NS="127.0.0.1:$nsport"; CTL="127.0.0.1:$ctlport"; BROKER_PIDS=(); CLUSTER_PIDS=()
    case "$kind" in
        modmq)
            # modmq reads RocketMQ's keys: its controller listens on the controllerDLegerPeers address
            # (and uses that port + 1 for its own Raft traffic).
            cat >"$dir/ns/namesrv.conf" <<EOF
listenPort=$nsport
bindAddress=127.0.0.1
enableControllerInNamesrv=true
controllerDLegerGroup=group1
controllerDLegerPeers=n0-127.0.0.1:$ctlport
controllerDLegerSelfId=n0
controllerStorePath=$dir/ctl
EOF
            MODMQ_LOG_DIR="$dir/ns" JAVA_OPTS="-Duser.home=$dir/ns/home $MODMQ_NAMESRV_OPTS" \
                "$DIST/bin/mqnamesrv" -c "$dir/ns/namesrv.conf" >"$dir/ns/namesrv.out" 2>&1 &
            ;;
        rocketmq)
            # scanAvailableNameSrv: see bench/README.md (false on the name server only, never on a broker).
            cat >"$dir/ns/namesrv.properties" <<EOF
listenPort=$nsport
bindAddress=127.0.0.1
scanAvailableNameSrv=false
enableControllerInNamesrv=true
controllerDLegerGroup=group1
controllerDLegerPeers=n0-127.0.0.1:$ctlport
controllerDLegerSelfId=n0
controllerStorePath=$dir/ctl
EOF
            # shellcheck disable=SC2086
            ROCKETMQ_HOME="$dir/ns/home" java $RMQ_NAMESRV_OPTS -Duser.home="$dir/ns/home" \
                -Drocketmq.home.dir="$dir/ns/home" -cp "$RMQ_LIB/*" org.apache.rocketmq.namesrv.NamesrvStartup \
                -c "$dir/ns/namesrv.properties" >"$dir/ns/namesrv.out" 2>&1 &
            ;;
    esac
    pid=$!; PIDS+=("$pid"); CLUSTER_PIDS+=("$pid")
    if ! wait_port "$nsport" 60 "$pid"; then
        WHY="the name server did not start with enableControllerInNamesrv=true and the controller keys"
        log "$product: $WHY (log: $dir/ns/namesrv.out)"
        tail -n 5 "$dir/ns/namesrv.out" >&2 || true
        return 1
    fi
    if ! wait_port "$ctlport" 60 "$pid"; then
        WHY="the name server runs, but no embedded controller listens on $ctlport (enableControllerInNamesrv=true)"
        log "$product: $WHY (log: $dir/ns/namesrv.out)"
        return 1
    fi
    i=0
    for port in $b1 $b2 $b3; do
        i=$((i + 1))
        mkdir -p "$dir/b$i/home" "$dir/b$i/store"
        conf="$dir/b$i/broker.conf"
        cat >"$conf" <<EOF
brokerClusterName=FailoverCluster
brokerName=fo-a
brokerIP1=127.0.0.1
listenPort=$port
namesrvAddr=$NS
storePathRootDir=$dir/b$i/store
flushDiskType=$FLUSH
autoCreateTopicEnable=true
autoCreateSubscriptionGroup=true
defaultTopicQueueNums=$QUEUES
enableControllerMode=true
controllerAddr=$CTL
allAckInSyncStateSet=true
EOF
        case "$kind" in
            modmq)
                printf 'haListenPort=%s\nhaStrategy=%s\n' $((port + 1)) "$ha" >>"$conf"
                # env execs the launcher, which execs java: $! is the JVM.
                MODMQ_LOG_DIR="$dir/b$i" JAVA_OPTS="-Duser.home=$dir/b$i/home $MODMQ_BROKER_OPTS" env ${MODMQ_HEAP:+"JAVA_HEAP_OPTS=$MODMQ_HEAP"} \
                    "$DIST/bin/mqbroker" -c "$conf" >"$dir/b$i/broker.out" 2>&1 &
                ;;
            rocketmq)
                printf 'brokerIP2=127.0.0.1\nbindAddress=127.0.0.1\n' >>"$conf"
                # shellcheck disable=SC2086
                ROCKETMQ_HOME="$dir/b$i/home" java $RMQ_BROKER_OPTS -Duser.home="$dir/b$i/home" \
                    -Drocketmq.home.dir="$dir/b$i/home" -cp "$RMQ_LIB/*" org.apache.rocketmq.broker.BrokerStartup \
                    -c "$conf" >"$dir/b$i/broker.out" 2>&1 &
                ;;
        esac
        pid=$!; PIDS+=("$pid"); CLUSTER_PIDS+=("$pid"); BROKER_PIDS+=("127.0.0.1:$port=$pid")
        if ! wait_port "$port" "$START_TIMEOUT" "$pid"; then
            WHY="a broker in controller mode did not start (enableControllerMode=true)"
            log "$product: broker $i did not listen on $port (log: $dir/b$i)"
            tail -n 5 "$dir/b$i/broker.out" >&2 || true
            return 1
        fi
    done
    log "$product: name server $nsport, controller $ctlport, brokers $b1 $b2 $b3 (${BROKER_PIDS[*]})"
}

stop_cluster() {
    local keep=() p q
    stop_pids "${CLUSTER_PIDS[@]}"
    for p in "${PIDS[@]}"; do
        for q in "${CLUSTER_PIDS[@]}"; do [ "$p" = "$q" ] && continue 2; done
        keep+=("$p")
    done
    PIDS=("${keep[@]}")
    CLUSTER_PIDS=()
}

# ---- runs -------------------------------------------------------------------------------------
declare -A R       # R[product|scenario|key] = value
declare -A SKIP    # SKIP[product] = why it does not run
LINES=()

run_one() { # product scenario
    local product=$1 scenario=$2 fault=${2%%:*} poll dir args line duration step rc=0
    poll=${2#*:}; [ "$poll" != "$2" ] || poll=30000
    dir="$WORK/$product-${scenario/:/-}"
    if ! start_cluster "$product" "$dir"; then
        SKIP[$product]="$WHY (logs: BENCH_KEEP=1)"
        stop_cluster
        return 0
    fi
    args=(--broker-name fo-a --replicas 3 --controller "$CTL" -t "$THREADS" -s "$SIZE" -q "$QUEUES"
          --poll-name-server-ms "$poll" --healthy-timeout "$START_TIMEOUT" -w "$WARMUP")
    for bp in "${BROKER_PIDS[@]}"; do args+=(--broker-pid "$bp"); done
    case "$fault" in
        kill) duration=$((AFTER_KILL + poll / 1000)); args+=(--fault kill --route-poll-ms "$ROUTE_POLL_MS") ;;
        stop) duration=$((AFTER_STOP + poll / 1000))
              args+=(--fault stop --cont-after-ms "$CONT_AFTER_MS" --rejoin-timeout "$REJOIN_TIMEOUT" --route-poll-ms "$ROUTE_POLL_MS") ;;
        none) duration=$NOFAULT; args+=(--no-fault --route-poll-ms "$NOFAULT_ROUTE_POLL_MS") ;;
        *) die "unknown scenario $scenario (kill:MS, stop:MS or none)" ;;
    esac
    args+=(-d "$duration" --verify-timeout "$VERIFY_TIMEOUT")
    step=$((START_TIMEOUT + WARMUP + duration + REJOIN_TIMEOUT + VERIFY_TIMEOUT + 120))
    log "$product $scenario: failover ${args[*]}"
    line=$(timeout "$step" java -Drocketmq.log.root="$dir/client" -Duser.home="$dir/client" -jar "$JAR" failover \
        -n "$NS" "${args[@]}" -f kv 2>"$dir/bench.err" | tail -n 1) || rc=$?
    [ "$rc" -eq 0 ] || log "$product $scenario: mq-bench exited with $rc (stderr: $dir/bench.err)"
    if [ -z "$line" ]; then
        tail -n 5 "$dir/bench.err" >&2 || true
    else
        for key in new_master_ms first_send_ok_ms no_master_ms process_gone_ms failed_after_fault acknowledged missing duplicates \
                   unacknowledged_stored old_master_replica_ms old_master_replica_id master_changes \
                   changes_per_hour watched_s msgs_per_sec signal_call_ms; do
            R["$product|$scenario|$key"]=$(kv "$line" "$key")
        done
        LINES+=("product=$product scenario=$scenario $line")
        if [ "$fault" = none ]; then
            log "$product $scenario: $(kv "$line" master_changes) master changes in $(kv "$line" watched_s) s, missing $(kv "$line" missing)"
        else
            log "$product $scenario: new master $(kv "$line" new_master_ms) ms, first SEND_OK $(kv "$line" first_send_ok_ms) ms, missing $(kv "$line" missing)"
        fi
    fi
    stop_cluster
    [ "$KEEP" = 1 ] || rm -rf "$dir"/b*/store "$dir/ctl"
}

COLUMNS_=()
for p in $PRODUCTS; do
    case "$p" in
        modmq)
            if [ ! -x "${DIST:-/nonexistent}/bin/mqbroker" ]; then
                SKIP[modmq]="no built distribution at '${DIST:-mq-distribution/target/modmq-*}'"
            fi
            for ha in $MODMQ_HA; do COLUMNS_+=("modmq-$ha"); done ;;
        rocketmq)
            resolve_rocketmq
            need=$(( 3 * $(heap_mib "$RMQ_BROKER_OPTS") + $(heap_mib "$RMQ_NAMESRV_OPTS") + 2048 ))
            [ "$(mem_available_mib)" -ge "$need" ] \
                || die "RocketMQ's three pre-touched heaps need about $need MiB and $(mem_available_mib) MiB are available (BENCH_ROCKETMQ_BROKER_OPTS)"
            COLUMNS_+=("rocketmq") ;;
        *) die "unknown product $p (modmq or rocketmq)" ;;
    esac
done

log "mode $MODE: scenarios '$SCENARIOS', warm-up ${WARMUP}s, products '${COLUMNS_[*]}'; temp $WORK"
ORDER=("${COLUMNS_[@]}")
for scenario in $SCENARIOS; do
    for product in "${ORDER[@]}"; do
        base=${product%%-*}
        if [ -n "${SKIP[$base]:-}" ]; then continue; fi
        if [ -n "${SKIP[$product]:-}" ]; then continue; fi
        run_one "$product" "$scenario"
        if [ -n "${SKIP[$product]:-}" ] && [ "$base" = modmq ]; then SKIP[modmq]=${SKIP[$product]}; fi
    done
    # Each scenario runs the products in the opposite order of the one before.
    rev=(); for ((i = ${#ORDER[@]} - 1; i >= 0; i--)); do rev+=("${ORDER[$i]}"); done; ORDER=("${rev[@]}")
done

# ---- table ------------------------------------------------------------------------------------
label() { case "$1" in rocketmq) echo "RocketMQ 5.3.3" ;; modmq-*) echo "modmq ${1#modmq-}" ;; *) echo "$1" ;; esac; }
ROWS=()
for scenario in $SCENARIOS; do
    fault=${scenario%%:*}; poll=${scenario#*:}; [ "$poll" != "$scenario" ] || poll=30000
    case "$fault" in
        kill|stop)
            t="$fault, poll $((poll / 1000)) s:"
            [ "$fault" = stop ] || ROWS+=("$scenario|process_gone_ms|$t killed process gone ms"
                                          "$scenario|no_master_ms|$t old master off the name server ms")
            ROWS+=("$scenario|new_master_ms|$t new master at name server ms"
                   "$scenario|first_send_ok_ms|$t first SEND_OK on new master ms")
            [ "$fault" = kill ] || ROWS+=("$scenario|old_master_replica_ms|$t old master back as replica ms"
                                          "$scenario|old_master_replica_id|$t old master's new id")
            ROWS+=("$scenario|failed_after_fault|$t failed sends after fault"
                   "$scenario|acknowledged|$t acknowledged"
                   "$scenario|missing|$t missing (acknowledged, unreadable)"
                   "$scenario|duplicates|$t duplicates"
                   "$scenario|unacknowledged_stored|$t stored, not acknowledged") ;;
        none)
            ROWS+=("$scenario|master_changes|no fault: master changes"
                   "$scenario|watched_s|no fault: seconds watched"
                   "$scenario|changes_per_hour|no fault: master changes per hour"
                   "$scenario|missing|no fault: missing"
                   "$scenario|msgs_per_sec|no fault: msgs/s (sync, ${THREADS} threads)") ;;
    esac
done

echo
echo "mode=$MODE scenarios='$SCENARIOS' warmup=${WARMUP}s after_kill=${AFTER_KILL}s+poll after_stop=${AFTER_STOP}s+poll nofault=${NOFAULT}s threads=$THREADS size=$SIZE flush=$FLUSH cont_after_ms=$CONT_AFTER_MS nproc=$(nproc)"
header="| $(printf '%-52s' figure) |"; sep="|$(printf -- '-%.0s' {1..54})|"
for c in "${COLUMNS_[@]}"; do header+=" $(printf '%14s' "$(label "$c")") |"; sep+="$(printf -- '-%.0s' {1..16})|"; done
echo "$header"; echo "$sep"
for row in "${ROWS[@]}"; do
    IFS='|' read -r scenario key text <<<"$row"
    out="| $(printf '%-52s' "$text") |"
    for c in "${COLUMNS_[@]}"; do v=${R["$c|$scenario|$key"]:-}; out+=" $(printf '%14s' "${v:--}") |"; done
    echo "$out"
done
for k in "${!SKIP[@]}"; do
    case "$k" in modmq-*) ;; *) echo "$(label "$k" 2>/dev/null || echo "$k"): skipped, ${SKIP[$k]}" ;; esac
done
echo
for line in "${LINES[@]}"; do echo "$line"; done
