package org.modmq.api.spi;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where modmq's servers and plugins report figures, without knowing which monitoring system (if any)
 * exports them. A figure is a family: a name, a help text and label names; a handle for one set of label
 * values is asked for once and kept, so that reporting on a hot path is one lock-free add.
 *
 * <p>Names follow Prometheus' rules ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}): a counter's name ends with
 * {@code _total}, a figure with a unit names it ({@code _seconds}, {@code _bytes}). Asking again for a
 * family that exists (same name, type and label names) returns it; a callback registered again under
 * the same name replaces the earlier one, so a plugin that is closed and created again (a role change)
 * reports through the new instance. Label values must be as many as the label names.
 *
 * <p>Thread-safety: implementations are thread-safe, and so are the handles they return. Callbacks
 * run on the exporter's thread at scrape time and must be quick and must not block.
 */
public interface MetricsSink {

    /** A sink that drops everything: what runs when no exporter is configured. */
    MetricsSink NOOP = new MetricsSink() {
        @Override
        public Family<Counter> counter(String name, String help, String... labelNames) {
            return labels -> amount -> { };
        }

        @Override
        public Family<Gauge> gauge(String name, String help, String... labelNames) {
            return labels -> value -> { };
        }

        @Override
        public Family<Histogram> histogram(String name, String help, double[] upperBounds, String... labelNames) {
            return labels -> value -> { };
        }

        @Override
        public void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            Objects.requireNonNull(callback, "callback");
        }

        @Override
        public void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames) {
            Objects.requireNonNull(callback, "callback");
        }
    };

    /**
     * A counter family ({@code name} ends with {@code _total}).
     *
     * @throws IllegalArgumentException on a bad name, or a name already taken by another type or labels
     */
    Family<Counter> counter(String name, String help, String... labelNames);

    /**
     * A gauge family whose values are set by the reporter.
     *
     * @throws IllegalArgumentException on a bad name, or a name already taken by another type or labels
     */
    Family<Gauge> gauge(String name, String help, String... labelNames);

    /**
     * A histogram family with the given bucket upper bounds (ascending, in the figure's unit).
     *
     * @throws IllegalArgumentException on a bad name or bounds, or a name already taken by another type or labels
     */
    Family<Histogram> histogram(String name, String help, double[] upperBounds, String... labelNames);

    /**
     * A gauge family computed when it is read: {@code callback} writes one sample per set of label
     * values. Registering the same name again replaces the callback.
     */
    void gaugeCallback(String name, String help, Consumer<Samples> callback, String... labelNames);

    /**
     * A counter family computed when it is read from counts the reporter keeps itself ({@code name}
     * ends with {@code _total}; each value must only grow). Registering the same name again replaces the
     * callback.
     */
    void counterCallback(String name, String help, Consumer<Samples> callback, String... labelNames);

    /**
     * One family's handles by label values.
     *
     * @param <T> the handle type
     */
    @FunctionalInterface
    interface Family<T> {

        /** The handle of one set of label values (as many as the family's label names); keep it. */
        T labels(String... labelValues);
    }

    /** A count that only grows. */
    @FunctionalInterface
    interface Counter {

        /** Adds {@code amount} (not negative). */
        void inc(long amount);
    }

    /** A value that goes up and down. */
    @FunctionalInterface
    interface Gauge {

        void set(double value);
    }

    /** A distribution of observed values. */
    @FunctionalInterface
    interface Histogram {

        void observe(double value);
    }

    /** What a callback writes its samples to; valid only during the callback. */
    @FunctionalInterface
    interface Samples {

        /** One sample of the family, with as many label values as the family has label names. */
        void sample(double value, String... labelValues);
    }
}
