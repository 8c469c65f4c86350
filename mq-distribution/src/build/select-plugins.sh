#!/bin/sh
# Build step of mq-distribution (run by Maven at prepare-package): copies the plugin jars named in LIST
# from CANDIDATES to OUT, which is emptied first. LIST holds provider names as broker.conf uses them
# (storeBackend, haStrategy), separated by commas or spaces: the property modmq.plugins.
#
#   select-plugins.sh CANDIDATES OUT LIST
#
# Fails, naming what is known, on an unknown name, or when LIST lacks a storage backend or a replication
# strategy: every broker loads one of each (storeBackend, default mmap; haStrategy, default pull), so a
# distribution without either could start no broker. The flush policies (SYNC_FLUSH, ASYNC_FLUSH) are
# part of mq-store in lib/ and always present.
set -eu

if [ $# -ne 3 ]; then
    echo "usage: select-plugins.sh CANDIDATES OUT LIST" >&2
    exit 2
fi
candidates=$1
out=$2
list=$3
known="mmap, direct, faulty (storage backends), pull, push (replication strategies)"

fail() {
    echo "modmq.plugins=$list: $1" >&2
    exit 1
}

# Provider name -> the artifact whose jar provides it.
artifact_of() {
    case $1 in
        mmap) echo mq-store-mmap ;;
        direct) echo mq-store-direct ;;
        faulty) echo mq-store-faulty ;;
        pull) echo mq-ha-pull ;;
        push) echo mq-ha-push ;;
        *) return 1 ;;
    esac
}

rm -rf "$out"
mkdir -p "$out"
storage=no
replication=no
for name in $(printf '%s' "$list" | tr ',' ' '); do
    case $name in
        SYNC_FLUSH | ASYNC_FLUSH)
            fail "$name is a flush policy, part of mq-store and always present; name plugins only: $known" ;;
    esac
    artifact=$(artifact_of "$name") || fail "unknown plugin '$name'; known: $known"
    jar=""
    for candidate in "$candidates/$artifact"-*.jar; do
        [ -f "$candidate" ] || continue
        [ -z "$jar" ] || fail "more than one jar of $artifact in $candidates"
        jar=$candidate
    done
    [ -n "$jar" ] || fail "no jar of $artifact in $candidates"
    cp "$jar" "$out/"
    case $name in
        mmap | direct) storage=yes ;;
        pull | push) replication=yes ;;
    esac
done
[ "$storage" = yes ] || fail "no storage backend: name mmap or direct (faulty only wraps one of them)"
[ "$replication" = yes ] || fail "no replication strategy: name pull or push (every broker loads one, haStrategy)"
echo "plugins/: $(cd "$out" && ls | tr '\n' ' ')"
