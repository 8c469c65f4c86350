package org.modmq.broker.controller;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a NOTIFY_BROKER_ROLE_CHANGED (1008) that arrived on the broker's own port into what the controller
 * leader says: anyone who reaches that port can send one, so its header is never acted on; the set's replica
 * info (GET_REPLICA_INFO, over this broker's own controller connection) is asked for and applied instead.
 * One confirmation is in flight at a time; notices arriving meanwhile ask for one more afterwards, so a
 * flood costs the controller one request at a time.
 *
 * <p>Threading: {@link #confirm} and the answers run on the agent's thread ({@code thread}).
 */
final class NoticeConfirmation {

    private static final Logger LOG = LoggerFactory.getLogger(NoticeConfirmation.class);

    private final ControllerClient controllers;
    private final String brokerName;
    private final Executor thread;
    private final BooleanSupplier active;
    private final BiConsumer<ReplicaView, String> apply;
    private boolean confirming;
    private boolean confirmAgain;

    /**
     * @param active whether the agent acts on anything now (running, with an id)
     * @param apply  applies the leader's answer, with where it came from
     */
    NoticeConfirmation(ControllerClient controllers, String brokerName, Executor thread, BooleanSupplier active,
                       BiConsumer<ReplicaView, String> apply) {
        this.controllers = Objects.requireNonNull(controllers, "controllers");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
        this.thread = Objects.requireNonNull(thread, "thread");
        this.active = Objects.requireNonNull(active, "active");
        this.apply = Objects.requireNonNull(apply, "apply");
    }

    /** Confirms {@code notice} (from {@code from}) with the leader and applies its answer. Agent thread only. */
    void confirm(ReplicaView notice, String from) {
        if (!active.getAsBoolean()) {
            return;
        }
        if (confirming) {
            confirmAgain = true;
            return;
        }
        confirming = true;
        long began = System.nanoTime();
        controllers.replicaInfo(brokerName).whenCompleteAsync((view, error) -> {
            confirming = false;
            long micros = (System.nanoTime() - began) / 1_000;
            if (error != null) {
                LOG.warn("cannot confirm the role-change notice from {} with the controller ({} us): {}; acting on "
                        + "nothing until the next heartbeat answer or poll", from, micros, ControllerRoleAgent.rootMessage(error));
            } else {
                if (!sameMaster(notice, view)) {
                    LOG.warn("role-change notice from {} named master {} ({}) epoch {}, the controller says master {} "
                            + "({}) epoch {}: following the controller", from, notice.masterBrokerId(),
                            notice.masterAddress(), notice.masterEpoch(), view.masterBrokerId(), view.masterAddress(),
                            view.masterEpoch());
                }
                LOG.info("role-change notice from {} confirmed with the controller in {} us", from, micros);
                apply.accept(view, "notification, confirmed by replica info");
            }
            if (confirmAgain) {
                confirmAgain = false;
                confirm(notice, from);
            }
        }, thread);
    }

    private static boolean sameMaster(ReplicaView a, ReplicaView b) {
        return a.masterEpoch() == b.masterEpoch() && Objects.equals(a.masterBrokerId(), b.masterBrokerId())
                && Objects.equals(a.masterAddress(), b.masterAddress());
    }
}
