package org.modmq.broker.admin;

import org.modmq.broker.runtime.QueueStatsSource;

import org.modmq.broker.stats.BrokerStats;
import org.modmq.broker.stats.PutLatency;
import org.modmq.broker.metadata.SystemTopics;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.modmq.broker.admin.AdminBodies.KVTable;
import org.modmq.broker.config.BrokerConfig;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;
import org.modmq.remoting.netty.RemotingChannel;
import org.modmq.remoting.netty.RequestProcessor;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;

/**
 * GET_BROKER_RUNTIME_INFO (28, {@code clusterList} and {@code brokerStatus}): a {@code KVTable} of
 * strings with every key a 5.3.3 broker reports, plus {@code getTransferedTps}, the spelling 4.x
 * brokers used and 4.x {@code clusterList} still reads. Figures modmq has no equivalent for (timer
 * wheel, page-cache lock, POP acks, transactions, queries) read {@code 0}; there is no transient store
 * pool, so {@code remainTransientStoreBufferNumbs} reads {@link Integer#MAX_VALUE}, as on a stock broker
 * without one. Thread-safe; admin executor.
 */
public final class RuntimeInfoProcessor implements RequestProcessor.Sync {

    public static final int[] CODES = {RequestCode.GET_BROKER_RUNTIME_INFO};
    /** The RocketMQ release whose protocol modmq speaks. */
    public static final String VERSION_DESC = "V5_3_3";
    public static final int VERSION = RemotingCommand.CURRENT_VERSION;
    private static final String[] ZERO_KEYS = {"pageCacheLockTimeMills", "startAcceptSendRequestTimeStamp",
        "remainHowManyDataToCommit", "timerReadBehind", "timerOffsetBehind", "timerCongestNum", "timerEnqueueTps",
        "timerDequeueTps", "queryThreadPoolQueueSize", "queryThreadPoolQueueCapacity",
        "queryThreadPoolQueueHeadWaitTimeMills", "litePullThreadPoolQueueSize", "litePullThreadPoolQueueCapacity",
        "litePullThreadPoolQueueHeadWaitTimeMills", "ackThreadPoolQueueSize", "ackThreadPoolQueueCapacity",
        "ackThreadPoolQueueHeadWaitTimeMills", "EndTransactionQueueSize", "EndTransactionThreadPoolQueueCapacity",
        "getMessageEntireTimeMax", "dispatchMaxBuffer"};

    private final AdminContext context;

    public RuntimeInfoProcessor(AdminContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        if (request.code() != RequestCode.GET_BROKER_RUNTIME_INFO) {
            return AdminResponses.unsupported(request);
        }
        return AdminResponses.json(request, new KVTable(runtimeInfo()));
    }

    /** The table as answered now. */
    Map<String, String> runtimeInfo() {
        Map<String, String> table = new TreeMap<>();
        for (String key : ZERO_KEYS) {
            table.put(key, "0");
        }
        BrokerConfig config = context.runtime().config();
        BrokerStats stats = context.stats();
        long now = context.runtime().clock().millis();
        table.put("brokerVersionDesc", VERSION_DESC);
        table.put("brokerVersion", Integer.toString(VERSION));
        table.put("brokerActive", Boolean.toString(context.runtime().registeredId().get() == 0));
        table.put("bootTimestamp", Long.toString(stats.bootTimestamp()));
        table.put("runtime", uptimeText(Duration.ofMillis(Math.max(0, now - stats.bootTimestamp()))));
        putTraffic(table, stats);
        putExecutor(table, "send", ExecutorKind.SEND);
        putExecutor(table, "pull", ExecutorKind.PULL);
        QueueStatsSource queues = context.queues();
        // RocketMQ's "delay offset,max offset" of each level's SCHEDULE_TOPIC_XXXX queue (brokerStatus shows them).
        context.runtime().metadata().delayOffsets().wrapper().offsetTable().forEach((level, offset) ->
                table.put("scheduleMessageOffset_" + level, offset + "," + queues.maxOffset("SCHEDULE_TOPIC_XXXX", level - 1)));
        table.put("earliestMessageTimeStamp", Long.toString(queues.earliestMessageTime()));
        table.put("commitLogMinOffset", Long.toString(queues.commitLogMinOffset()));
        table.put("commitLogMaxOffset", Long.toString(queues.commitLogMaxOffset()));
        table.put("dispatchBehindBytes", Long.toString(queues.dispatchBehindBytes()));
        table.put("remainHowManyDataToFlush", DiskUsage.byteCountText(Math.max(0, queues.unflushedBytes())));
        table.put("remainTransientStoreBufferNumbs", Integer.toString(Integer.MAX_VALUE));
        String commitLogRatio = Double.toString(DiskUsage.usedRatio(config.store().commitLogDir()));
        table.put("commitLogDiskRatio", commitLogRatio);
        table.put("commitLogDiskRatio_" + config.store().commitLogDir(), commitLogRatio);
        table.put("consumeQueueDiskRatio",
                Double.toString(DiskUsage.usedRatio(config.store().rootDir().resolve("consumequeue"))));
        table.put("commitLogDirCapacity", DiskUsage.capacityText(config.store().commitLogDir()));
        putDelayProgress(table, queues);
        return table;
    }

    /** {@code scheduleMessageOffset_<level>}: "delivered,written" of each delay level's queue with progress. */
    private void putDelayProgress(Map<String, String> table, QueueStatsSource queues) {
        context.runtime().metadata().delayOffsets().wrapper().offsetTable().forEach((level, delivered) ->
                table.put("scheduleMessageOffset_" + level, delivered + ","
                        + Math.max(0, queues.maxOffset(SystemTopics.SCHEDULE, level - 1))));
    }

    private static void putTraffic(Map<String, String> table, BrokerStats stats) {
        BrokerStats.DailyTotals put = stats.putDaily();
        BrokerStats.DailyTotals get = stats.getDaily();
        table.put("msgPutTotalYesterdayMorning", Long.toString(put.yesterdayMorning()));
        table.put("msgPutTotalTodayMorning", Long.toString(put.todayMorning()));
        table.put("msgPutTotalTodayNow", Long.toString(stats.putMessagesTotal()));
        table.put("msgGetTotalYesterdayMorning", Long.toString(get.yesterdayMorning()));
        table.put("msgGetTotalTodayMorning", Long.toString(get.todayMorning()));
        table.put("msgGetTotalTodayNow", Long.toString(stats.getTransferredTotal()));
        table.put("putTps", stats.putTps().text());
        table.put("getTransferredTps", stats.getTransferredTps().text());
        table.put("getTransferedTps", stats.getTransferredTps().text());
        table.put("getFoundTps", stats.getFoundTps().text());
        table.put("getMissTps", stats.getMissTps().text());
        table.put("getTotalTps", stats.getTotalTps().text());
        long requests = stats.putRequestsTotal();
        table.put("putMessageTimesTotal", Long.toString(requests));
        PutLatency latency = stats.putLatency();
        table.put("putMessageEntireTimeMax", Long.toString(latency.longestMillis()));
        table.put("putMessageFailedTimes", Long.toString(latency.failedTimes()));
        table.put("putMessageDistributeTime", latency.distributionText());
        table.put("putLatency99", latency.percentileText(0.99));
        table.put("putLatency999", latency.percentileText(0.999));
        table.put("putMessageSizeTotal", Long.toString(stats.putBytesTotal()));
        table.put("putMessageAverageSize", Double.toString(stats.putMessagesTotal() == 0 ? 0.0
                : (double) stats.putBytesTotal() / stats.putMessagesTotal()));
    }

    private void putExecutor(Map<String, String> table, String prefix, ExecutorKind kind) {
        ExecutorQueueProbe probe = context.executors();
        table.put(prefix + "ThreadPoolQueueSize", Integer.toString(probe.queueSize(kind)));
        table.put(prefix + "ThreadPoolQueueCapacity", Integer.toString(probe.queueCapacity(kind)));
        table.put(prefix + "ThreadPoolQueueHeadWaitTimeMills", Long.toString(probe.headWaitMillis(kind)));
    }

    /** {@code "[ 1 days, 2 hours, 3 minutes, 4 seconds ]"}, as stock brokers print the uptime. */
    static String uptimeText(Duration uptime) {
        return "[ " + uptime.toDays() + " days, " + uptime.toHoursPart() + " hours, " + uptime.toMinutesPart()
                + " minutes, " + uptime.toSecondsPart() + " seconds ]";
    }
}
