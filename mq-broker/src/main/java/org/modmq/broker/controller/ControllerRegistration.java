package org.modmq.broker.controller;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.modmq.broker.controller.BrokerIdentityFiles.Identity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Controller mode's start: the broker id the controller assigned (kept in the identity file), or a new
 * one — GET_NEXT_BROKER_ID, the temp file, APPLY_BROKER_ID, the identity file — then REGISTER_BROKER,
 * whose answer names the set's master. A crash between the steps resumes from the file it left, as
 * RocketMQ's brokers do. An identity file of another cluster or broker name stops start-up.
 *
 * <p>Threading: one registration at a time (the agent's thread); completions arrive on remoting threads.
 */
final class ControllerRegistration {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerRegistration.class);

    private final ControllerClient controllers;
    private final BrokerIdentityFiles files;
    private final String cluster;
    private final String brokerName;
    private final String brokerAddress;
    private final Clock clock;

    ControllerRegistration(ControllerClient controllers, BrokerIdentityFiles files, String cluster, String brokerName,
                           String brokerAddress, Clock clock) {
        this.controllers = Objects.requireNonNull(controllers, "controllers");
        this.files = Objects.requireNonNull(files, "files");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
        this.brokerAddress = Objects.requireNonNull(brokerAddress, "brokerAddress");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The id recorded as assigned, if any; checked against this broker's cluster and name. */
    Optional<Long> assignedId() {
        Optional<Identity> assigned = files.assigned();
        assigned.ifPresent(this::check);
        return assigned.map(Identity::brokerId);
    }

    /** Completes with this broker's id, allocating one from the controller when none is recorded. */
    CompletableFuture<Long> brokerId() {
        Optional<Long> assigned = assignedId();
        if (assigned.isPresent()) {
            return CompletableFuture.completedFuture(assigned.get());
        }
        Optional<Identity> applying = files.applying();
        applying.ifPresent(this::check);
        CompletableFuture<Identity> candidate = applying.map(CompletableFuture::completedFuture)
                .orElseGet(() -> controllers.nextBrokerId(cluster, brokerName).thenApply(next -> {
                    Identity identity = new Identity(cluster, brokerName, next, brokerAddress + ";" + clock.millis());
                    files.writeApplying(identity);
                    LOG.info("applying for broker id {} of {}", next, brokerName);
                    return identity;
                }));
        return candidate.thenCompose(identity -> controllers.applyBrokerId(cluster, brokerName, identity.brokerId(),
                identity.registerCheckCode()).handle((ok, error) -> {
                    if (error != null) {
                        // Taken by another broker (or the controller forgot it): start over at the next call.
                        files.clearApplying();
                        throw new IllegalStateException("broker id " + identity.brokerId() + " not granted: "
                                + error.getMessage(), error);
                    }
                    files.writeAssigned(identity);
                    LOG.info("broker id {} of {} assigned by the controller ({})", identity.brokerId(), brokerName,
                            files.file());
                    return identity.brokerId();
                }));
    }

    /** REGISTER_BROKER with the controller leader: the set's master and SyncStateSet. */
    CompletableFuture<ReplicaView> register(long brokerId) {
        return controllers.register(cluster, brokerName, brokerId, brokerAddress);
    }

    private void check(Identity identity) {
        if (!identity.clusterName().equals(cluster) || !identity.brokerName().equals(brokerName)) {
            throw new IllegalStateException(files.file() + " names broker " + identity.clusterName() + "/"
                    + identity.brokerName() + " but this broker is " + cluster + "/" + brokerName
                    + "; remove the file or fix brokerClusterName/brokerName");
        }
    }
}
