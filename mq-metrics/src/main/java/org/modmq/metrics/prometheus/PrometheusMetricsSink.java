package org.modmq.metrics.prometheus;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.modmq.api.spi.MetricsSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MetricsSink} on a Prometheus registry: every family carries the sink's constant labels (the
 * server's {@code cluster}, {@code node_type}, {@code node_id}). Handles are the client's data points
 * (striped adders), so a report costs what the client's {@code inc}/{@code observe} costs. Histograms
 * are classic only (explicit buckets), as RocketMQ's views are.
 *
 * <p>A callback that throws is logged (once per family until it succeeds again) and contributes no
 * sample; the other families are still scraped. Thread-safe.
 */
public final class PrometheusMetricsSink implements MetricsSink {

    private static final Logger LOG = LoggerFactory.getLogger(PrometheusMetricsSink.class);

    private final PrometheusRegistry registry;
    private final Labels constLabels;
    private final Map<String, Registered> families = new ConcurrentHashMap<>();
    /** Callback families whose last run threw, so that a broken one is logged once, not at every scrape. */
    private final Map<String, Boolean> failing = new ConcurrentHashMap<>();

    /** What a name is registered as; a second request must match it. */
    private record Registered(String type, List<String> labelNames, Object family,
                              AtomicReference<Consumer<Samples>> callback) {
    }

    /**
     * @param registry    where the families are registered
     * @param constLabels label name to value added to every family
     */
    public PrometheusMetricsSink(PrometheusRegistry registry, Map<String, String> constLabels) {
        this.registry = Objects.requireNonNull(registry, "registry");
        Labels.Builder labels = Labels.builder();
        new TreeMap<>(constLabels).forEach(labels::label);
        this.constLabels = labels.build();
    }

    @Override
    public Family<Counter> counter(String name, String help, String... labelNames) {
        var counter = (io.prometheus.metrics.core.metrics.Counter) register("counter", name, labelNames,
                () -> io.prometheus.metrics.core.metrics.Counter.builder()
                .name(name).help(help).labelNames(labelNames).constLabels(constLabels).withoutExemplars()
                .register(registry));
        return values -> {
            CounterDataPoint point = labelNames.length == 0 ? counter : counter.labelValues(checked(labelNames, values));
            return point::inc;
        };
    }

    @Override
    public Family<Gauge> gauge(String name, String help, String... labelNames) {
        var gauge = (io.prometheus.metrics.core.metrics.Gauge) register("gauge", name, labelNames,
                () -> io.prometheus.metrics.core.metrics.Gauge.builder()
                .name(name).help(help).labelNames(labelNames).constLabels(constLabels).withoutExemplars()
                .register(registry));
        return values -> {
            GaugeDataPoint point = labelNames.length == 0 ? gauge : gauge.labelValues(checked(labelNames, values));
            return point::set;
        };
    }

    @Override
    public Family<Histogram> histogram(String name, String help, double[] upperBounds, String... labelNames) {
        double[] bounds = upperBounds.clone();
        var histogram = (io.prometheus.metrics.core.metrics.Histogram) register("histogram", name, labelNames,
                () -> io.prometheus.metrics.core.metrics.Histogram.builder()
                .name(name).help(help).labelNames(labelNames).constLabels(constLabels).classicOnly()
                .classicUpperBounds(bounds).withoutExemplars().register(registry));
        return values -> {
            DistributionDataPoint point = labelNames.length == 0 ? histogram
                    : histogram.labelValues(checked(labelNames, values));
            return point::observe;
        };
    }

    @Override
    public void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
        Objects.requireNonNull(callback, "callback");
        AtomicReference<Consumer<Samples>> holder = new AtomicReference<>(callback);
        Registered registered = families.computeIfAbsent(name, n -> new Registered("gaugeCallback",
                List.of(labelNames), GaugeWithCallback.builder().name(name).help(help).labelNames(labelNames)
                .constLabels(constLabels).callback(sampler -> run(name, holder, labelNames, sampler::call))
                .register(registry), holder));
        replace(registered, "gaugeCallback", name, labelNames, callback);
    }

    @Override
    public void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
        Objects.requireNonNull(callback, "callback");
        AtomicReference<Consumer<Samples>> holder = new AtomicReference<>(callback);
        Registered registered = families.computeIfAbsent(name, n -> new Registered("counterCallback",
                List.of(labelNames), CounterWithCallback.builder().name(name).help(help).labelNames(labelNames)
                .constLabels(constLabels).callback(sampler -> run(name, holder, labelNames, sampler::call))
                .register(registry), holder));
        replace(registered, "counterCallback", name, labelNames, callback);
    }

    private Object register(String type, String name, String[] labelNames, Supplier<Object> create) {
        Registered registered = families.computeIfAbsent(name, n -> new Registered(type, List.of(labelNames),
                create.get(), null));
        check(registered, type, name, labelNames);
        return registered.family();
    }

    private static void replace(Registered registered, String type, String name, String[] labelNames,
                                Consumer<Samples> callback) {
        check(registered, type, name, labelNames);
        registered.callback().set(callback);
    }

    private static void check(Registered registered, String type, String name, String[] labelNames) {
        if (!registered.type().equals(type) || !registered.labelNames().equals(List.of(labelNames))) {
            throw new IllegalArgumentException("metric " + name + " is already registered as " + registered.type()
                    + " with labels " + registered.labelNames() + ", not as " + type + " with labels "
                    + Arrays.toString(labelNames));
        }
    }

    private static String[] checked(String[] labelNames, String[] values) {
        if (values.length != labelNames.length) {
            throw new IllegalArgumentException("expected values for " + Arrays.toString(labelNames) + ", got "
                    + Arrays.toString(values));
        }
        return values;
    }

    private void run(String name, AtomicReference<Consumer<Samples>> holder, String[] labelNames, Samples out) {
        try {
            holder.get().accept((value, values) -> out.sample(value, checked(labelNames, values)));
            failing.remove(name);
        } catch (RuntimeException e) {
            if (failing.put(name, Boolean.TRUE) == null) {
                LOG.warn("metric {} could not be computed; it is left out of scrapes until it can", name, e);
            }
        }
    }
}
