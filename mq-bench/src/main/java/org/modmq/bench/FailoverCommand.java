package org.modmq.bench;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code failover} command: drives one broker set through one fault and reports how long the
 * set and a stock producer took to recover, and whether an acknowledged message was lost.
 *
 * <ol>
 *   <li>Waits until the set is healthy ({@link BrokerSetProbe}), then runs a keyed sync-send load
 *       ({@link KeyedSendLoad}) through the warm-up while a {@link RouteWatcher} polls the name server.</li>
 *   <li>Sends the fault to the master's process ({@link FaultSignal}); every time is taken from the
 *       moment right before that signal. With {@code stop}, SIGCONT follows once the name server shows
 *       a new master (plus {@code --cont-after-ms}), and after the load the command waits for the old
 *       master to register again as a replica.</li>
 *   <li>Keeps the load going for the duration, then reads the topic back ({@link DeliveryAudit}).</li>
 * </ol>
 *
 * With {@code --no-fault} nothing is injected: the run counts master changes during the load (the false
 * election rate). Exit code 0 when the run completed and lost nothing; 1 when the workload could not
 * run, a fault brought no new master, nothing was acknowledged or an acknowledged message is missing
 * (the report is printed in every case where the run got that far).
 */
@Command(name = "failover", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Fault a broker set's master (SIGKILL or SIGSTOP) under sync-send load; report the time to a "
                + "new master at the name server and to the producer's first SEND_OK, and lost or duplicated messages.")
final class FailoverCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Mixin
    TimingOptions timing;

    @Mixin
    FailoverOptions options;

    @Spec
    CommandSpec spec;

    private PrintWriter events;

    @Override
    public Integer call() throws Exception {
        validate();
        events = common.quiet ? new PrintWriter(PrintWriter.nullWriter()) : spec.commandLine().getErr();
        FailoverOptions.Fault fault = options.faultOrNull();
        String workload = "failover-" + (fault == null ? "none" : fault.name().toLowerCase(Locale.ROOT));
        String topic = common.topicFor("failover");
        BenchClients clients = new BenchClients(common);
        SendLedger ledger = new SendLedger("fo" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL) + "-");
        LoadMeter meter = new LoadMeter();
        RouteLog routes = new RouteLog();

        DefaultMQProducer admin = clients.producer(workload + "-admin");
        DefaultMQProducer producer = clients.producer(workload);
        producer.setPollNameServerInterval(options.pollNameServerMillis);
        producer.setRetryTimesWhenSendFailed(options.retries);
        admin.start();
        Map<String, String> extras = new LinkedHashMap<>();
        boolean newMasterSeen;
        DeliveryAudit.Result audit;
        try {
            producer.start();
            MQClientAPIImpl api = admin.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();
            BrokerSetProbe probe = new BrokerSetProbe(api, routes, options.brokerName, options.controller);
            RouteWatcher watcher = new RouteWatcher(api, options.brokerName, routes, options.routePollMillis);
            try (ProgressAgent progress = new ProgressAgent(spec.commandLine().getErr(), workload,
                    meter::totalMessages, meter::totalErrors, common.quiet)) {
                progress.phase("healthy");
                BrokerSetProbe.Health health = probe.awaitHealthy(options.replicas, topic, common.queues, producer,
                        TimeUnit.SECONDS.toMillis(options.healthyTimeoutSeconds));
                event("healthy after %d ms: master %s, %d brokers, SyncStateSet %d, epoch %d", health.waitedMillis(),
                        health.master(), health.brokers(), health.syncStateSet(), health.masterEpoch());
                extras.put("healthy_wait_ms", Long.toString(health.waitedMillis()));
                extras.put("brokers", Integer.toString(health.brokers()));

                byte[] body = new byte[common.size];
                ThreadLocalRandom.current().nextBytes(body);
                FailoverTimeline timeline;
                try (KeyedSendLoad load = new KeyedSendLoad(producer, topic, body, ledger, meter, options.failPauseMillis)) {
                    timeline = drive(load, routes, probe, progress, fault, extras);
                }
                FailoverFigures figures = new FailoverFigures(timeline, routes, ledger);
                newMasterSeen = figures.newMaster().isPresent();
                extras.putAll(figures.timings());
                controllerFigures(probe, "after", extras);
                progress.phase("audit");
                audit = new DeliveryAudit(clients, api).audit(topic, ledger, routes.latest().map(BrokerSetView::master)
                        .orElse(null), TimeUnit.SECONDS.toMillis(options.verifyIdleSeconds),
                        TimeUnit.SECONDS.toMillis(options.verifyTimeoutSeconds));
                extras.putAll(FailoverFigures.audit(audit, ledger.issued()));
            } finally {
                watcher.close();
            }
        } finally {
            producer.shutdown();
            admin.shutdown();
        }
        extras.put("threads", Integer.toString(options.threads));
        extras.put("size", Integer.toString(common.size));
        extras.put("topic", topic);
        extras.put("broker_name", options.brokerName);
        extras.put("poll_name_server_ms", Integer.toString(options.pollNameServerMillis));
        extras.put("retries", Integer.toString(options.retries));
        BenchReport report = BenchReport.of(workload, meter, "send", extras);
        spec.commandLine().getOut().print(common.format.format(report));
        spec.commandLine().getOut().flush();
        boolean ok = audit.missing() == 0 && audit.acknowledged() > 0 && (fault == null || newMasterSeen);
        return ok ? 0 : 1;
    }

    /** Warm-up, fault, the time after it, and (stop) SIGCONT and the old master's return. */
    private FailoverTimeline drive(KeyedSendLoad load, RouteLog routes, BrokerSetProbe probe, ProgressAgent progress,
                                   FailoverOptions.Fault fault, Map<String, String> extras)
            throws BenchException, InterruptedException {
        long loadStart = System.nanoTime();
        load.start(options.threads);
        progress.phase("warmup");
        pauseUntil(loadStart + TimeUnit.SECONDS.toNanos(timing.warmupSeconds));
        String oldMaster = routes.latest().map(BrokerSetView::master).orElse(null);
        if (oldMaster == null) {
            throw new BenchException("the name server lists no master of " + options.brokerName + " after the warm-up");
        }
        controllerFigures(probe, "before", extras);
        long pid = -1;
        long faultNanos;
        Long contNanos = null;
        if (fault == null) {
            faultNanos = System.nanoTime();
            markFault(routes, load, faultNanos, oldMaster);
            load.openWindow();
            progress.phase("watch");
        } else {
            pid = options.target().resolve(oldMaster);
            FaultSignal signal = fault == FailoverOptions.Fault.KILL ? FaultSignal.KILL : FaultSignal.STOP;
            faultNanos = signal.send(pid, nanos -> markFault(routes, load, nanos, oldMaster));
            long signalled = System.nanoTime();
            load.openWindow();
            progress.phase("after-" + signal.label());
            extras.put("signal_call_ms", String.format(Locale.ROOT, "%.1f", (signalled - faultNanos) / 1e6));
            event("SIG%s to %d (master %s), the call took %.1f ms", signal.name(), pid, oldMaster,
                    (signalled - faultNanos) / 1e6);
        }
        long end = faultNanos + TimeUnit.SECONDS.toNanos(timing.durationSeconds);
        ExitWatch exit = fault == FailoverOptions.Fault.KILL ? new ExitWatch(pid, end) : null;
        try {
            if (fault == FailoverOptions.Fault.STOP) {
                Optional<BrokerSetView> elected = routes.awaitSince(faultNanos, v -> v.hasMasterOtherThan(oldMaster), end);
                elected.ifPresent(v -> event("new master %s after %.1f ms", v.master(), (v.nanos() - faultNanos) / 1e6));
                long contAt = elected.map(v -> v.nanos() + TimeUnit.MILLISECONDS.toNanos(options.contAfterMillis)).orElse(end);
                pauseUntil(Math.min(contAt, end));
                contNanos = FaultSignal.CONT.send(pid);
                event("SIGCONT to %d after %.1f ms", pid, (contNanos - faultNanos) / 1e6);
            }
            pauseUntil(end);
        } finally {
            if (fault == FailoverOptions.Fault.STOP && contNanos == null) {
                FaultSignal.CONT.send(pid);
            }
            if (exit != null) {
                exit.close();
                extras.put("process_gone_ms", exit.goneNanos() < 0 ? "-1"
                        : String.format(Locale.ROOT, "%.1f", (exit.goneNanos() - faultNanos) / 1e6));
            }
        }
        load.closeWindow();
        load.close();
        long loadEnd = System.nanoTime();
        progress.phase("rejoin");
        if (contNanos != null) {
            long cont = contNanos;
            routes.awaitSince(cont, v -> v.listsAsReplica(oldMaster), cont + TimeUnit.SECONDS.toNanos(options.rejoinTimeoutSeconds))
                    .ifPresent(v -> event("old master %s registered as id %d after %.1f ms from SIGCONT", oldMaster,
                            v.idOf(oldMaster), (v.nanos() - cont) / 1e6));
        }
        return new FailoverTimeline(fault == null ? "none" : fault.name().toLowerCase(Locale.ROOT), oldMaster, pid,
                loadStart, faultNanos, contNanos, loadEnd, System.nanoTime());
    }

    private static void markFault(RouteLog routes, KeyedSendLoad load, long nanos, String oldMaster) {
        routes.mark(nanos);
        load.markFault(nanos, oldMaster);
    }

    private void controllerFigures(BrokerSetProbe probe, String when, Map<String, String> extras)
            throws InterruptedException {
        if (options.controller == null) {
            return;
        }
        Optional<BrokerReplicasInfo.ReplicasInfo> info = probe.replicasInfo();
        extras.put("epoch_" + when, info.map(i -> Integer.toString(i.getMasterEpoch())).orElse("-1"));
        extras.put("sync_state_set_" + when, info.map(i -> Integer.toString(i.getInSyncReplicas().size())).orElse("-1"));
    }

    private void event(String format, Object... args) {
        events.printf(Locale.ROOT, "[failover] " + format + "%n", args);
        events.flush();
    }

    private static void pauseUntil(long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left > 0) {
            Pacing.pause(left);
        }
    }

    private void validate() {
        String error = common.validate();
        if (error == null) {
            error = timing.validate();
        }
        if (error == null) {
            error = options.validate();
        }
        if (error != null) {
            throw new ParameterException(spec.commandLine(), error);
        }
    }
}
