package org.modmq.broker.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.modmq.api.spi.MetricsSink;

/** A sink for tests: keeps the callbacks and reads them on demand; handles count into a map. Thread-safe. */
final class RecordingSink implements MetricsSink {

    /** One sample a callback wrote. */
    record Sample(double value, List<String> labels) {
    }

    private final Map<String, Consumer<Samples>> callbacks = new ConcurrentHashMap<>();
    final Map<String, Double> observed = new ConcurrentHashMap<>();

    @Override
    public Family<Counter> counter(String name, String help, String... labelNames) {
        return values -> amount -> observed.merge(key(name, values), (double) amount, Double::sum);
    }

    @Override
    public Family<Gauge> gauge(String name, String help, String... labelNames) {
        return values -> value -> observed.put(key(name, values), value);
    }

    @Override
    public Family<Histogram> histogram(String name, String help, double[] upperBounds, String... labelNames) {
        return values -> value -> observed.merge(key(name, values) + "_count", 1.0, Double::sum);
    }

    @Override
    public void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
        callbacks.put(name, callback);
    }

    @Override
    public void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
        callbacks.put(name, callback);
    }

    /** What the callback of {@code name} writes now. */
    List<Sample> read(String name) {
        List<Sample> samples = new ArrayList<>();
        Consumer<Samples> callback = callbacks.get(name);
        if (callback == null) {
            throw new AssertionError("no callback registered as " + name + "; have " + callbacks.keySet());
        }
        callback.accept((value, labels) -> samples.add(new Sample(value, List.of(labels))));
        return samples;
    }

    private static String key(String name, String[] values) {
        return name + Arrays.toString(values);
    }
}
