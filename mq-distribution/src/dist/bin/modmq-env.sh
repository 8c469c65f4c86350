# Shared by bin/mqnamesrv, bin/mqcontroller, bin/mqbroker and bin/modmq; sourced, not run.
#
# Environment honoured by every launcher:
#   JAVA_HOME       JDK 17+ to use when the distribution has no runtime/ image; otherwise `java` from PATH
#   JAVA_HEAP_OPTS  replaces the launcher's heap, direct memory and GC settings (see modmq_memory_options)
#   MODMQ_MEMORY_MB memory the sizing rule divides, in MiB, instead of the container limit or the RAM
#   JAVA_OPTS       extra JVM options, appended after the defaults
#   MODMQ_LOG_DIR   directory for log files (default: <distribution>/logs)
#   MODMQ_PID_FILE  if set, the process id is written to this file
#   MODMQ_CDS       off: no class-data sharing archive (see modmq_cds_options below)
#   MODMQ_CDS_DIR   where the class-data sharing archives are kept (default: <distribution>/cds)
#
# The launchers change to the distribution directory first, so relative paths (the -c argument,
# storePathRootDir, kvConfigPath) resolve against it.

modmq_launch() {
    # $1 = log name, $2 = sizing rule (broker or small, see modmq_memory_options), $3 = GC options,
    # $4 = module/main class; rest = program arguments
    log_name=$1
    sizing=$2
    gc_options=$3
    main=$4
    shift 4

    # A runtime image built with -Pjlink (runtime/) wins: it was made for these jars.
    if [ -x "$MODMQ_HOME/runtime/bin/java" ]; then
        java_cmd="$MODMQ_HOME/runtime/bin/java"
    elif [ -n "$JAVA_HOME" ]; then
        java_cmd="$JAVA_HOME/bin/java"
    else
        java_cmd=java
    fi
    if ! command -v "$java_cmd" >/dev/null 2>&1; then
        echo "modmq: no java found; set JAVA_HOME or put java on the PATH" >&2
        exit 1
    fi
    if [ -n "$JAVA_HEAP_OPTS" ]; then
        heap_options=$JAVA_HEAP_OPTS
        memory_note="JAVA_HEAP_OPTS"
    else
        memory=$(modmq_memory_mb)
        memory_options=$(modmq_memory_options "$sizing" "${memory%% *}")
        heap_options="$memory_options $gc_options"
        memory_note="$memory_options ($sizing rule, ${memory%% *} MiB from ${memory#* })"
    fi

    log_dir=${MODMQ_LOG_DIR:-$MODMQ_HOME/logs}
    mkdir -p "$log_dir"
    cd "$MODMQ_HOME"
    # lib/controller/ (controller, Ratis, the launchers' module) only where a controller may run.
    case $main in
        org.modmq.broker/*) module_path="$MODMQ_HOME/lib:$MODMQ_HOME/plugins" ;;
        *) module_path="$MODMQ_HOME/lib:$MODMQ_HOME/lib/controller:$MODMQ_HOME/plugins" ;;
    esac
    cds_options=$(modmq_cds_options "$log_name" "$java_cmd" "$module_path")
    # Without conf/logback.xml, lib/'s mq-logging sets up the same logging in code, which starts faster
    # than reading XML; conf/logback.xml.example is that set-up as a file to copy and change.
    logback_file=
    if [ -f "$MODMQ_HOME/conf/logback.xml" ]; then
        logback_file="$MODMQ_HOME/conf/logback.xml"
    fi

    echo "$log_name: pid $$, home $MODMQ_HOME, logs $log_dir/$log_name.log, java $java_cmd, memory $memory_note"
    if [ -n "$MODMQ_PID_FILE" ]; then
        echo "$$" > "$MODMQ_PID_FILE"
    fi

    # ALL-MODULE-PATH resolves the epoll native jar and every plugin in plugins/.
    # io.netty.jfr.enabled=false: Netty's allocator would otherwise start JFR's event machinery for
    # its buffer events (~0.1 s at start-up); JAVA_OPTS may turn it back on.
    # shellcheck disable=SC2086
    exec "$java_cmd" $heap_options \
        -XX:+ExitOnOutOfMemoryError \
        $cds_options \
        -Dio.netty.jfr.enabled=false \
        -Dmodmq.home="$MODMQ_HOME" \
        -Dmodmq.log.dir="$log_dir" \
        -Dmodmq.log.name="$log_name" \
        ${logback_file:+"-Dlogback.configurationFile=$logback_file"} \
        $JAVA_OPTS \
        --module-path "$module_path" \
        --add-modules ALL-MODULE-PATH \
        -m "$main" "$@"
}

# Memory sizing (when JAVA_HEAP_OPTS is not set). Prints "<MiB> <where it came from>": MODMQ_MEMORY_MB
# if set, else the cgroup memory limit of this process (v2 memory.max, v1 memory.limit_in_bytes; of its
# own cgroup, else of the cgroup root as a container sees it), else the RAM (MemTotal); a limit above the
# RAM ("max", or v1's near-2^63 "unlimited") counts as the RAM. MODMQ_CGROUP_ROOT (default
# /sys/fs/cgroup) and MODMQ_MEMINFO (default /proc/meminfo) exist for tests.
modmq_memory_mb() {
    if [ -n "${MODMQ_MEMORY_MB:-}" ]; then
        case $MODMQ_MEMORY_MB in
            *[!0-9]*)
                echo "modmq: MODMQ_MEMORY_MB=$MODMQ_MEMORY_MB is not a whole number of MiB" >&2
                return 1 ;;
        esac
        echo "$MODMQ_MEMORY_MB MODMQ_MEMORY_MB"
        return 0
    fi
    mem_root=${MODMQ_CGROUP_ROOT:-/sys/fs/cgroup}
    mem_ram=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' "${MODMQ_MEMINFO:-/proc/meminfo}" 2>/dev/null || true)
    mem_v2=$(awk -F: '$1 == "0" && $2 == "" { print $3; exit }' /proc/self/cgroup 2>/dev/null || true)
    mem_v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup 2>/dev/null || true)
    for mem_file in "$mem_root${mem_v2%/}/memory.max" "$mem_root/memory.max" \
        "$mem_root/memory${mem_v1%/}/memory.limit_in_bytes" "$mem_root/memory/memory.limit_in_bytes"; do
        [ -r "$mem_file" ] || continue
        mem_limit=$(head -n 1 "$mem_file" 2>/dev/null || true)
        case $mem_limit in
            '' | *[!0-9]*) continue ;; # "max": no limit here
        esac
        mem_limit=$((mem_limit / 1048576))
        if [ -z "$mem_ram" ] || [ "$mem_limit" -lt "$mem_ram" ]; then
            echo "$mem_limit $mem_file"
            return 0
        fi
    done
    if [ -n "$mem_ram" ] && [ "$mem_ram" -gt 0 ]; then
        echo "$mem_ram MemTotal"
    else
        echo "1024 default (no memory limit or MemTotal readable)"
    fi
}

# The heap and direct memory options of a sizing rule ($1) for $2 MiB of memory, each share clamped:
#   broker (bin/mqbroker, bin/modmq): heap 1/4 (64 MiB to 1 GiB), direct memory 1/4 (64 MiB to 1 GiB),
#     initial heap 64 MiB; the rest is for the page cache of the memory-mapped store files,
#     metaspace, thread stacks and code.
#   small (bin/mqnamesrv, bin/mqcontroller): heap 1/8 (32 MiB to 256 MiB), direct memory 1/16
#     (32 MiB to 256 MiB), initial heap 32 MiB.
# The caps keep a large host near the fixed sizes the launchers had before (broker heap 256 MiB and
# direct memory 1 GiB, 256 MiB for the others; the broker's heap may now grow to 1 GiB, G1 commits it
# only as needed from the 64 MiB start): a broker's data lives in the page cache, not the heap.
modmq_memory_options() {
    case $1 in
        broker) set -- "$2" 4 64 1024 4 64 1024 64 ;;
        small) set -- "$2" 8 32 256 16 32 256 32 ;;
        *) echo "modmq: unknown sizing rule $1" >&2; return 1 ;;
    esac
    # $1 MiB, heap divisor/min/max, direct divisor/min/max, initial heap
    mem_heap=$(modmq_clamp $(($1 / $2)) "$3" "$4")
    mem_direct=$(modmq_clamp $(($1 / $5)) "$6" "$7")
    mem_initial=$(modmq_clamp "$8" 0 "$mem_heap")
    echo "-Xms${mem_initial}m -Xmx${mem_heap}m -XX:MaxDirectMemorySize=${mem_direct}m"
}

modmq_clamp() {
    if [ "$1" -lt "$2" ]; then
        echo "$2"
    elif [ "$1" -gt "$3" ]; then
        echo "$3"
    else
        echo "$1"
    fi
}

# Class-data sharing (AppCDS). A start without an archive has the JVM record the classes it loaded
# into <dir>/<name>-<module path checksum>.jsa.<pid> when it exits (clean shutdown; nothing after
# kill -9). A later start checks such a file with -Xshare:on in a throw-away JVM (a truncated
# archive would crash the JVM that maps it), renames it to <name>-<checksum>.jsa and starts with
# it: class loading and verification of the application's ~4000 classes come from the archive.
# An archive older than a jar in lib/ or plugins/ or than the JDK is dropped and recorded again.
# Prints the JVM options (none when switched off or the directory is not writable).
modmq_cds_options() {
    # $1 = log name, $2 = java command, $3 = module path
    [ "${MODMQ_CDS:-on}" != off ] || return 0
    cds_dir=${MODMQ_CDS_DIR:-$MODMQ_HOME/cds}
    case "$cds_dir$3" in
        *[[:space:]]*) return 0 ;; # the options are passed unquoted
    esac
    { mkdir -p "$cds_dir" && [ -w "$cds_dir" ]; } 2>/dev/null || return 0
    cds_archive="$cds_dir/$1-$(printf '%s' "$3" | cksum | cut -d ' ' -f 1).jsa"
    cds_java=$(command -v "$2")
    cds_jdk_modules=$(dirname "$(readlink -f "$cds_java" 2>/dev/null || echo "$cds_java")")/../lib/modules
    if [ -f "$cds_archive" ] && modmq_cds_fresh "$cds_archive" "$cds_jdk_modules"; then
        echo "-XX:SharedArchiveFile=$cds_archive"
        return 0
    fi
    rm -f "$cds_archive"
    for cds_candidate in "$cds_archive".*; do
        [ -f "$cds_candidate" ] || continue
        # A JVM still running writes its file when it exits.
        if kill -0 "${cds_candidate##*.}" 2>/dev/null; then
            continue
        fi
        if modmq_cds_fresh "$cds_candidate" "$cds_jdk_modules" \
            && "$2" -Xshare:on -XX:SharedArchiveFile="$cds_candidate" -XX:ErrorFile=/dev/null \
                -XX:-CreateCoredumpOnCrash --module-path "$3" -version >/dev/null 2>&1; then
            mv -f "$cds_candidate" "$cds_archive" 2>/dev/null || true
        else
            rm -f "$cds_candidate"
        fi
    done
    if [ -f "$cds_archive" ]; then
        echo "-XX:SharedArchiveFile=$cds_archive"
    else
        # The recording JVM lists the classes it skips (JFR events, ...) as warnings: not for the log.
        echo "-XX:ArchiveClassesAtExit=$cds_archive.$$ -Xlog:cds*=off"
    fi
}

# Whether archive $1 is newer than every jar of the distribution and than the JDK's modules file $2.
modmq_cds_fresh() {
    [ -z "$(find "$MODMQ_HOME/lib" "$MODMQ_HOME/plugins" "$2" -newer "$1" 2>/dev/null | head -n 1)" ]
}
