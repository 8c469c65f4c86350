package org.modmq.broker.controller;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;

/**
 * Finds a master's HA address from its main address: the controller names only the main address, and
 * waiting for the name servers to name the HA address (as RocketMQ's replicas do) can take a whole
 * registration period. GET_BROKER_CONFIG (26) answers every broker's settings, modmq's and RocketMQ's
 * alike: the HA address is {@code brokerIP2} (else the main address's host) and {@code haListenPort} (else
 * the main port + 1, RocketMQ's default). Stateless apart from the client; thread-safe.
 */
final class MasterHaAddressResolver {

    private final RemotingClient client;
    private final Duration timeout;

    MasterHaAddressResolver(RemotingClient client, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The HA address of the broker at {@code masterAddress} ({@code host:port}); fails when it does not say. */
    CompletableFuture<String> resolve(String masterAddress) {
        return client.invoke(masterAddress, RemotingCommand.request(RequestCode.GET_BROKER_CONFIG), timeout)
                .thenApply(response -> {
                    if (response.code() != ResponseCode.SUCCESS) {
                        throw new IllegalStateException("master " + masterAddress + " answered GET_BROKER_CONFIG with "
                                + response.code() + ": " + response.remark());
                    }
                    return haAddress(masterAddress, response.body());
                });
    }

    static String haAddress(String masterAddress, byte[] body) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(body == null ? new byte[0] : body, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException("unreadable GET_BROKER_CONFIG answer from " + masterAddress, e);
        }
        int colon = masterAddress.lastIndexOf(':');
        String host = masterAddress.substring(0, colon);
        int mainPort = Integer.parseInt(masterAddress.substring(colon + 1));
        String ip2 = properties.getProperty("brokerIP2", "").trim();
        int haPort = parsePort(properties.getProperty("haListenPort"));
        if (haPort <= 0) {
            haPort = mainPort + 1;
        }
        return (ip2.isEmpty() ? host : ip2) + ":" + haPort;
    }

    private static int parsePort(String value) {
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
