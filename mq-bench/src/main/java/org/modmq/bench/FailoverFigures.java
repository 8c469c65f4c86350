package org.modmq.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns what one failover run recorded (timeline, route history, send ledger, read-back audit) into the
 * report's figures. Every time is in milliseconds from the fault signal, -1 when the event was not seen
 * within its bound. Stateless apart from its inputs; used once.
 */
final class FailoverFigures {

    private final FailoverTimeline timeline;
    private final RouteLog routes;
    private final SendLedger ledger;

    FailoverFigures(FailoverTimeline timeline, RouteLog routes, SendLedger ledger) {
        this.timeline = Objects.requireNonNull(timeline, "timeline");
        this.routes = Objects.requireNonNull(routes, "routes");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    /** The first name-server answer after the fault with a master other than the old one. */
    Optional<BrokerSetView> newMaster() {
        return routes.firstSince(timeline.faultNanos(), v -> v.hasMasterOtherThan(timeline.oldMaster()));
    }

    /** The fault-related figures: times, route history, send outcomes. */
    Map<String, String> timings() {
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put("fault", timeline.fault());
        figures.put("old_master", timeline.oldMaster());
        if (timeline.faulted()) {
            figures.put("pid", Long.toString(timeline.pid()));
            Optional<BrokerSetView> elected = newMaster();
            figures.put("new_master", elected.map(BrokerSetView::master).orElse("none"));
            figures.put("new_master_ms", elected.map(v -> millis(timeline.sinceFaultMillis(v.nanos()))).orElse("-1"));
            figures.put("no_master_ms", routes.firstSince(timeline.faultNanos(), v -> v.master() == null)
                    .map(v -> millis(timeline.sinceFaultMillis(v.nanos()))).orElse("-1"));
            figures.put("first_send_ok_ms", nanosAsMillis(ledger.firstOkElsewhereNanos()));
            figures.put("first_send_ok_any_ms", nanosAsMillis(ledger.firstOkAfterFaultNanos()));
            figures.put("first_send_ok_any_broker", ledger.firstOkStoreHost().isEmpty() ? "unknown"
                    : ledger.firstOkStoreHost());
            figures.put("old_master_oks_after_fault", Long.toString(ledger.oldMasterOksAfterFault()));
            figures.put("old_master_last_ok_ms", nanosAsMillis(ledger.lastOldMasterOkNanos()));
        }
        if (timeline.contNanos() != null) {
            long cont = timeline.contNanos();
            figures.put("cont_ms", millis(timeline.sinceFaultMillis(cont)));
            Optional<BrokerSetView> rejoined = routes.firstSince(cont, v -> v.listsAsReplica(timeline.oldMaster()));
            figures.put("old_master_replica_ms", rejoined.map(v -> millis((v.nanos() - cont) / 1e6)).orElse("-1"));
            figures.put("old_master_replica_id", rejoined.map(v -> Long.toString(v.idOf(timeline.oldMaster())))
                    .orElse("-1"));
        }
        figures.put("failed_before_fault", Long.toString(ledger.failedBeforeFault()));
        figures.put("failed_after_fault", Long.toString(ledger.failedAfterFault()));
        ledger.outcomesAfter().forEach((outcome, count) -> figures.put("after_" + outcome, Long.toString(count)));
        figures.putAll(watch());
        return figures;
    }

    /**
     * Master changes seen by the name-server poll: after the fault for a fault run, over the whole load
     * for a run without one, and that count per hour of the window (the false-election rate).
     */
    private Map<String, String> watch() {
        long from = timeline.faulted() ? timeline.faultNanos() : timeline.loadStartNanos();
        long to = timeline.faulted() ? timeline.watchEndNanos() : timeline.loadEndNanos();
        double seconds = Math.max(1e-9, (to - from) / 1e9);
        long changes = routes.masterChanges(from, to);
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put("watched_s", String.format(Locale.ROOT, "%.1f", seconds));
        figures.put("master_changes", Long.toString(changes));
        figures.put("master_gaps", Long.toString(routes.masterGaps(from, to)));
        if (!timeline.faulted()) {
            figures.put("changes_per_hour", String.format(Locale.ROOT, "%.2f", changes * 3600.0 / seconds));
        }
        figures.put("route_polls", Long.toString(routes.polls()));
        figures.put("route_poll_errors", Long.toString(routes.pollErrors()));
        figures.put("route_poll_max_gap_ms", millis(routes.maxGapNanos() / 1e6));
        figures.put("route_changes_truncated", Boolean.toString(routes.truncated()));
        return figures;
    }

    /** The read-back figures. */
    static Map<String, String> audit(DeliveryAudit.Result audit, long issued) {
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put("sent", Long.toString(issued));
        figures.put("acknowledged", Long.toString(audit.acknowledged()));
        figures.put("missing", Long.toString(audit.missing()));
        figures.put("duplicates", Long.toString(audit.duplicates()));
        figures.put("unacknowledged_stored", Long.toString(audit.unacknowledgedStored()));
        figures.put("rows_stored", Long.toString(audit.rowsStored()));
        figures.put("rows_read", Long.toString(audit.rowsRead()));
        figures.put("rows_redelivered", Long.toString(audit.redelivered()));
        figures.put("verify_complete", Boolean.toString(audit.complete()));
        figures.put("verify_ms", Long.toString(audit.millis()));
        return figures;
    }

    private static String nanosAsMillis(long nanos) {
        return nanos < 0 ? "-1" : millis(nanos / 1e6);
    }

    private static String millis(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
