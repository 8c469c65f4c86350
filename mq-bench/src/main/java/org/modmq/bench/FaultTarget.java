package org.modmq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which process the fault hits: a fixed process id, the id written in a file (read at the moment of
 * the fault, so a script may write it late), or the process of whichever broker is the master at that
 * moment, from a table broker address to process id. Exactly one of the three is set. Immutable.
 *
 * @param pid       a process id, or {@code null}
 * @param pidFile   a file holding a process id, or {@code null}
 * @param byAddress broker address ({@code host:port}) to process id, empty when not used (copied)
 */
record FaultTarget(Long pid, Path pidFile, Map<String, Long> byAddress) {

    FaultTarget {
        byAddress = byAddress == null ? Map.of() : Map.copyOf(byAddress);
        int given = (pid == null ? 0 : 1) + (pidFile == null ? 0 : 1) + (byAddress.isEmpty() ? 0 : 1);
        if (given != 1) {
            throw new IllegalArgumentException("exactly one of pid, pidFile and byAddress must be given");
        }
    }

    /**
     * The process to signal when {@code master} is the master's address.
     *
     * @throws BenchException if the file cannot be read or holds no number, or the master's address is
     *                        not in the table
     */
    long resolve(String master) throws BenchException {
        if (pid != null) {
            return pid;
        }
        if (pidFile != null) {
            try {
                return Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
            } catch (IOException | NumberFormatException e) {
                throw new BenchException("cannot read a process id from " + pidFile, e);
            }
        }
        Long found = byAddress.get(master);
        if (found == null) {
            throw new BenchException("the master " + master + " is none of the brokers given with --broker-pid "
                    + new TreeMap<>(byAddress).keySet());
        }
        return found;
    }
}
