package org.modmq.broker.config;

import java.util.Set;

/**
 * RocketMQ {@code broker.conf} keys that modmq accepts but does not act on. Each one found in a file
 * is logged once as a warning; any key neither read nor listed here stops start-up.
 */
final class IgnoredKeys {

    static final Set<String> ROCKETMQ = Set.of(
            "rocketmqHome", "authenticationEnabled", "authorizationEnabled",
            "enablePropertyFilter", "filterSupportRetry", "filterServerNums", "enableCalcFilterBitMap",
            "transientStorePoolEnable", "transientStorePoolSize", "fastFailIfNoBufferInStorePool",
            "traceTopicEnable", "msgTraceTopicName", "traceOn",
            "enableDLegerCommitLog", "dLegerGroup", "dLegerPeers", "dLegerSelfId", "preferredLeaderId",
            "fetchControllerAddrByDnsLookup", "enableAutoInSyncReplicas", "enableElectUncleanMaster",
            "enableSlaveActingMaster", "enableRemoteEscape", "compatibleWithOldNameSrv",
            "fetchNamesrvAddrByAddressServer", "rmqAddressServerDomain", "rmqAddressServerSubGroup",
            "useEpollNativeSelector", "serverWorkerThreads", "serverSelectorThreads", "serverCallbackExecutorThreads",
            "serverOnewaySemaphoreValue", "serverAsyncSemaphoreValue",
            "serverSocketSndBufSize", "serverSocketRcvBufSize", "serverPooledByteBufAllocatorEnable",
            // Timer tuning of RocketMQ's own wheel (threads, queues, metrics, roll window, file size);
            // modmq's wheel has a single agent, a fixed slot count and rolls inside its own timer log.
            "timerRollWindowSlot", "timerGetMessageThreadNum", "timerPutMessageThreadNum", "timerEnableDisruptor",
            "timerEnableCheckMetrics", "timerCheckMetricsWhen", "timerInterceptDelayLevel", "timerCongestNumEachSlot",
            "timerMetricSmallThreshold", "timerProgressLogIntervalMs", "timerSkipUnknownError", "timerWarmEnable",
            "timerEnableRetryUntilSuccess", "timerColdDataCheckIntervalMs", "mappedFileSizeTimerLog",
            "brokerTopicEnable", "clusterTopicEnable", "compressedRegister", "isolateLogEnable",
            "useReentrantLockWhenPutMessage", "brokerFastFailureEnable",
            "waitTimeMillsInSendQueue", "waitTimeMillsInPullQueue", "osPageCacheBusyTimeOutMills",
            "maxTransferBytesOnMessageInMemory", "maxTransferCountOnMessageInMemory",
            "maxTransferBytesOnMessageInDisk", "maxTransferCountOnMessageInDisk",
            "flushConsumeQueueLeastPages", "flushConsumeQueueThoroughInterval",
            "flushCommitLogThoroughInterval", "commitIntervalCommitLog", "commitCommitLogLeastPages",
            "cleanResourceInterval", "deleteCommitLogFilesInterval", "deleteConsumeQueueFilesInterval",
            "destroyMapedFileIntervalForcibly", "redeleteHangedFileInterval", "cleanFileForciblyEnable",
            "messageIndexEnable", "messageIndexSafe", "maxMsgsNumBatch",
            "duplicationEnable", "diskFallRecorded", "checkCRCOnRecover", "enableConsumeQueueExt",
            "storePathConsumeQueue", "storePathIndex", "storeCheckpoint", "abortFile",
            "transactionOpMsgMaxSize", "transactionOpBatchInterval", "transactionMetricFlushInterval",
            "storeReplyMessageEnable", "offsetCheckInSlave", "notifyConsumerIdsChangedEnable",
            "enableDetailStat", "autoDeleteUnusedStats", "mapedFileSizeCommitLog", "mapedFileSizeConsumeQueue",
            "region", "regionId", "brokerVIPChannel", "vipChannelEnabled",
            "defaultQueryMaxNum", "highSpeedMode", "commercialEnable", "putMsgIndexHightWater",
            "enableLmq", "enableMultiDispatch",
            "forceRegister", "registerNameServerPeriodMs", "heartbeatTimeoutMillis",
            // RocketMQ 5's other metrics settings (OTLP and logging exporters, delta aggregation, extra labels,
            // per-area switches); modmq serves every figure cumulatively through metricsExporterType=PROM.
            "metricsOtelCardinalityLimit", "metricsGrpcExporterTarget", "metricsGrpcExporterHeader",
            "metricGrpcExporterTimeOutInMills", "metricGrpcExporterIntervalInMills",
            "metricLoggingExporterIntervalInMills", "metricsLabel", "metricsInDelta", "enableRemotingMetrics",
            "enableMessageStoreMetrics", "enablePopMetrics", "enableConnectionMetrics", "enableTransactionMetrics",
            "enableStatsMetrics", "enableRequestMetrics", "enableLagAndDlqMetrics");

    private IgnoredKeys() {
    }
}
