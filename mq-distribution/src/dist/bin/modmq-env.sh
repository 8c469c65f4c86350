# Shared by bin/mqnamesrv, bin/mqcontroller, bin/mqbroker and bin/modmq; sourced, not run.
#
# Environment honoured by every launcher:
#   JAVA_HOME       JDK 17+ to use; otherwise `java` from PATH
#   JAVA_HEAP_OPTS  replaces the launcher's default heap and GC settings
#   JAVA_OPTS       extra JVM options, appended after the defaults
#   MODMQ_LOG_DIR   directory for log files (default: <distribution>/logs)
#   MODMQ_PID_FILE  if set, the process id is written to this file
#   MODMQ_CDS       off: no class-data sharing archive (see modmq_cds_options below)
#   MODMQ_CDS_DIR   where the class-data sharing archives are kept (default: <distribution>/cds)
#
# The launchers change to the distribution directory first, so relative paths (the -c argument,
# storePathRootDir, kvConfigPath) resolve against it.

modmq_launch() {
    # $1 = log name, $2 = default heap/GC options, $3 = module/main class; rest = program arguments
    log_name=$1
    default_heap=$2
    main=$3
    shift 3

    if [ -n "$JAVA_HOME" ]; then
        java_cmd="$JAVA_HOME/bin/java"
    else
        java_cmd=java
    fi
    if ! command -v "$java_cmd" >/dev/null 2>&1; then
        echo "modmq: no java found; set JAVA_HOME or put java on the PATH" >&2
        exit 1
    fi

    log_dir=${MODMQ_LOG_DIR:-$MODMQ_HOME/logs}
    mkdir -p "$log_dir"
    cd "$MODMQ_HOME"
    module_path="$MODMQ_HOME/lib:$MODMQ_HOME/plugins"
    cds_options=$(modmq_cds_options "$log_name" "$java_cmd" "$module_path")

    echo "$log_name: pid $$, home $MODMQ_HOME, logs $log_dir/$log_name.log"
    if [ -n "$MODMQ_PID_FILE" ]; then
        echo "$$" > "$MODMQ_PID_FILE"
    fi

    # ALL-MODULE-PATH resolves the epoll native jar and every plugin in plugins/.
    # io.netty.jfr.enabled=false: Netty's allocator would otherwise start JFR's event machinery for
    # its buffer events (~0.1 s at start-up); JAVA_OPTS may turn it back on.
    # shellcheck disable=SC2086
    exec "$java_cmd" ${JAVA_HEAP_OPTS:-$default_heap} \
        -XX:+ExitOnOutOfMemoryError \
        $cds_options \
        -Dio.netty.jfr.enabled=false \
        -Dmodmq.home="$MODMQ_HOME" \
        -Dmodmq.log.dir="$log_dir" \
        -Dmodmq.log.name="$log_name" \
        -Dlogback.configurationFile="$MODMQ_HOME/conf/logback.xml" \
        $JAVA_OPTS \
        --module-path "$module_path" \
        --add-modules ALL-MODULE-PATH \
        -m "$main" "$@"
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
