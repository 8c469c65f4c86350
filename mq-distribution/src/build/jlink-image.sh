#!/bin/sh
# Build step of mq-distribution's jlink profile (-Pjlink, run at prepare-package after select-plugins.sh):
# writes STAGING/runtime, a Java runtime image holding only the JDK modules that STAGING/lib and
# STAGING/plugins need. Our own jars stay on the module path next to it: lib/ holds automatic modules
# (the merged Ratis jar, snakeyaml) and jlink takes explicit modules only.
#
#   jlink-image.sh STAGING [JAVA_HOME]
#
# The JDK modules are what jdeps finds in every jar, plus two it cannot see: java.naming, which logback
# declares "requires static" but whose classes its XML configuration loads (NoClassDefFoundError at
# start-up without it), and jdk.crypto.ec, reached only as a security provider (elliptic-curve keys
# and TLS cipher suites).
# The image gets its own class-data sharing archive of the JDK's classes (--generate-cds-archive),
# which the launchers' per-process archive builds on.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: jlink-image.sh STAGING [JAVA_HOME]" >&2
    exit 2
fi
staging=$1
jdk=${2:-${JAVA_HOME:-}}
if [ -n "$jdk" ] && [ -x "$jdk/bin/jlink" ]; then
    bin="$jdk/bin/"
else
    bin=""
fi
image="$staging/runtime"
module_path="$staging/lib:$staging/lib/controller:$staging/plugins"

found=$("${bin}jdeps" --multi-release 17 --ignore-missing-deps --print-module-deps \
    --module-path "$module_path" --add-modules ALL-MODULE-PATH)
modules="$found,java.naming,jdk.crypto.ec"
echo "runtime/: JDK modules $modules"

rm -rf "$image"
"${bin}jlink" --add-modules "$modules" --output "$image" \
    --strip-debug --no-man-pages --no-header-files --compress=2 --generate-cds-archive
