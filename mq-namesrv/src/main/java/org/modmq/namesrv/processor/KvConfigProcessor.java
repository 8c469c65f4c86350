package org.modmq.namesrv.processor;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.modmq.namesrv.body.KVTable;
import org.modmq.namesrv.kv.KvConfigStore;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RemotingServer;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.HeaderFields;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * KV configuration: {@code PUT_KV_CONFIG}, {@code GET_KV_CONFIG}, {@code DELETE_KV_CONFIG} and
 * {@code GET_KVLIST_BY_NAMESPACE}. Thread-safe.
 */
public final class KvConfigProcessor {

    private final KvConfigStore kv;
    private final RequestLimits limits;

    /** @param limits bounds of PUT_KV_CONFIG: lengths and the number of pairs */
    public KvConfigProcessor(KvConfigStore kv, RequestLimits limits) {
        this.kv = Objects.requireNonNull(kv, "kv");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** Registers this processor's codes on {@code server}, to run on {@code executor}. */
    public void registerOn(RemotingServer server, ExecutorService executor) {
        RequestProcessor processor = RequestProcessor.sync(this::process);
        for (int code : new int[] {RequestCode.PUT_KV_CONFIG, RequestCode.GET_KV_CONFIG, RequestCode.DELETE_KV_CONFIG,
                RequestCode.GET_KVLIST_BY_NAMESPACE}) {
            server.registerProcessor(code, processor, executor);
        }
    }

    /** Answers one request of this processor's codes. */
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        HeaderFields headers = request.headers();
        String namespace = headers.requireString("namespace");
        switch (request.code()) {
            case RequestCode.PUT_KV_CONFIG -> {
                String key = headers.requireString("key");
                String value = headers.requireString("value");
                String problem = putProblem(namespace, key, value);
                if (problem != null) {
                    return Replies.error(request, ResponseCode.INVALID_PARAMETER, problem);
                }
                if (!kv.putBounded(namespace, key, value, limits.kvMaxEntries())) {
                    return Replies.error(request, ResponseCode.INVALID_PARAMETER, "the KV configuration already holds "
                            + RequestLimits.KV_MAX_ENTRIES + "=" + limits.kvMaxEntries() + " pairs; delete some first");
                }
                return Replies.success(request);
            }
            case RequestCode.GET_KV_CONFIG -> {
                String key = headers.requireString("key");
                Optional<String> value = kv.get(namespace, key);
                return value.isPresent()
                        ? Replies.success(request).putExtField("value", value.get())
                        : Replies.error(request, ResponseCode.QUERY_NOT_FOUND,
                                "No config item, Namespace: " + namespace + " Key: " + key);
            }
            case RequestCode.DELETE_KV_CONFIG -> {
                kv.delete(namespace, headers.requireString("key"));
                return Replies.success(request);
            }
            case RequestCode.GET_KVLIST_BY_NAMESPACE -> {
                return kv.namespace(namespace)
                        .map(table -> Replies.success(request, Json.encode(new KVTable(table))))
                        .orElseGet(() -> Replies.error(request, ResponseCode.QUERY_NOT_FOUND,
                                "No config item, Namespace: " + namespace));
            }
            default -> {
                return Replies.error(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                        " request type " + request.code() + " not supported");
            }
        }
    }

    /** Why a pair is refused, or null. */
    private String putProblem(String namespace, String key, String value) {
        if (namespace.isBlank() || key.isBlank()) {
            return "the KV namespace and key must not be blank";
        }
        if (namespace.length() > limits.maxNameLength() || key.length() > limits.maxNameLength()) {
            return "a KV namespace or key has at most " + RequestLimits.MAX_NAME_LENGTH + "=" + limits.maxNameLength()
                    + " characters";
        }
        if (value.length() > limits.kvMaxValueLength()) {
            return "a KV value has at most " + RequestLimits.KV_MAX_VALUE_LENGTH + "=" + limits.kvMaxValueLength()
                    + " characters: " + value.length();
        }
        return null;
    }
}
