# Shared by bin/mqnamesrv, bin/mqbroker and bin/modmq; sourced, not run.
#
# Environment honoured by every launcher:
#   JAVA_HOME       JDK 17+ to use; otherwise `java` from PATH
#   JAVA_HEAP_OPTS  replaces the launcher's default heap and GC settings
#   JAVA_OPTS       extra JVM options, appended after the defaults
#   MODMQ_LOG_DIR   directory for log files (default: <distribution>/logs)
#   MODMQ_PID_FILE  if set, the process id is written to this file
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

    echo "$log_name: pid $$, home $MODMQ_HOME, logs $log_dir/$log_name.log"
    if [ -n "$MODMQ_PID_FILE" ]; then
        echo "$$" > "$MODMQ_PID_FILE"
    fi

    # ALL-MODULE-PATH resolves the epoll native jar and every plugin in plugins/.
    # shellcheck disable=SC2086
    exec "$java_cmd" ${JAVA_HEAP_OPTS:-$default_heap} \
        -XX:+ExitOnOutOfMemoryError \
        -Dmodmq.home="$MODMQ_HOME" \
        -Dmodmq.log.dir="$log_dir" \
        -Dmodmq.log.name="$log_name" \
        -Dlogback.configurationFile="$MODMQ_HOME/conf/logback.xml" \
        $JAVA_OPTS \
        --module-path "$MODMQ_HOME/lib:$MODMQ_HOME/plugins" \
        --add-modules ALL-MODULE-PATH \
        -m "$main" "$@"
}
