package org.modmq.fuzz;

import java.util.Objects;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * A server to fuzz and how to judge it. Immutable (what the suppliers return may change).
 *
 * @param host        where it listens (a loopback address)
 * @param port        its port
 * @param generator   draws the requests
 * @param probe       builds, for an opaque, a well-formed request the server answers with SUCCESS whatever
 *                    came before (a read: it must not change what the server stores)
 * @param storedState what the server stores, as a value compared with {@code equals} before and after
 *                    each refused request (a CommitLog offset and a topic table, say); a supplier that
 *                    returns null means "not checked"
 * @param garbage     what the server stores that no request should ever have made it store (a topic whose
 *                    name the server itself refuses, say), one text per item; checked after every trial,
 *                    and an item not seen before fails that trial
 * @param closeUndoes whether closing a connection changes the stored state by itself (a name server forgets
 *                    the brokers registered over it): then the state is not compared after a close
 * @param json        reads the server's JSON headers
 */
public record FuzzTarget(String host, int port, RequestGenerator generator, IntFunction<FuzzRequest> probe,
                         Supplier<Object> storedState, Supplier<Set<String>> garbage, boolean closeUndoes,
                         Reply.JsonHeaderReader json) {

    /** Checks for nulls. */
    public FuzzTarget {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(generator, "generator");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(storedState, "storedState");
        Objects.requireNonNull(garbage, "garbage");
        Objects.requireNonNull(json, "json");
    }

    /** @return {@code host:port} */
    public String address() {
        return host + ":" + port;
    }
}
