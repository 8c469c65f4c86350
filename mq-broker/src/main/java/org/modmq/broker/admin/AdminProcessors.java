package org.modmq.broker.admin;

import org.modmq.broker.stats.BrokerStats;

import java.util.Objects;
import org.modmq.broker.runtime.LiveBrokerConfig;
import org.modmq.broker.runtime.ProcessorRegistrar;
import org.modmq.broker.runtime.ProcessorRegistrar.ExecutorKind;
import org.modmq.remoting.netty.RequestProcessor;

/**
 * Registers the admin and statistics processors of this package on the ADMIN executor and starts
 * sampling the {@link BrokerStats} on the broker's scheduler (the sampling ends when the broker stops
 * its scheduler). Call once at start-up, after the built-in processors: GET_BROKER_CONFIG (26) is
 * taken over by {@link BrokerConfigProcessor} so that it reports run-time changes. Stateless.
 */
public final class AdminProcessors {

    private AdminProcessors() {
    }

    /**
     * @return the run-time configuration that UPDATE_BROKER_CONFIG changes; readers of run-time
     *     settings ask it for the values in force
     */
    public static LiveBrokerConfig register(ProcessorRegistrar registrar, AdminContext context) {
        Objects.requireNonNull(registrar, "registrar");
        Objects.requireNonNull(context, "context");
        LiveBrokerConfig live = context.runtime().live();
        registrar.register(ExecutorKind.ADMIN, RequestProcessor.sync(new RuntimeInfoProcessor(context)),
                RuntimeInfoProcessor.CODES);
        registrar.register(ExecutorKind.ADMIN, RequestProcessor.sync(new TopicStatsProcessor(context)),
                TopicStatsProcessor.CODES);
        registrar.register(ExecutorKind.ADMIN, RequestProcessor.sync(new ConsumeStatsProcessor(context)),
                ConsumeStatsProcessor.CODES);
        registrar.register(ExecutorKind.ADMIN, RequestProcessor.sync(new ConsumptionLookupProcessor(context)),
                ConsumptionLookupProcessor.CODES);
        registrar.register(ExecutorKind.ADMIN, RequestProcessor.sync(new BrokerConfigProcessor(live)),
                BrokerConfigProcessor.CODES);
        context.stats().startSampling(context.runtime().scheduler());
        return live;
    }
}
