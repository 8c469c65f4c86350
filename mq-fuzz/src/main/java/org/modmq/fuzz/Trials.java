package org.modmq.fuzz;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Runs a property over seeded random trials, bounded by a count and a time, for in-process checks (a
 * decoder fed arbitrary bytes, say). A trial that throws ends the run with an {@link AssertionError}
 * naming the property, the seed and the trial, so {@code -Dmodmq.fuzz.seed=<seed>} repeats it.
 * Stateless; runs on the calling thread.
 */
public final class Trials {

    /** The system property that chooses the seed: a number, or {@code random}. */
    public static final String SEED_PROPERTY = "modmq.fuzz.seed";
    /** The system property that overrides every property's time bound, in seconds (for longer local runs). */
    public static final String SECONDS_PROPERTY = "modmq.fuzz.seconds";
    /** The seed when the property is absent: runs in a test suite are repeatable by default. */
    public static final long DEFAULT_SEED = 0x6D6F646D71L;

    /** One trial of a property. */
    @FunctionalInterface
    public interface Trial {
        /**
         * @param random this trial's random, seeded by the run's seed and {@code index}
         * @param index  the trial's number, from 0
         * @throws Exception when the property does not hold
         */
        void run(SplittableRandom random, long index) throws Exception;
    }

    private Trials() {
    }

    /** @return the seed chosen by {@link #SEED_PROPERTY}, else {@link #DEFAULT_SEED} */
    public static long seed() {
        String chosen = System.getProperty(SEED_PROPERTY);
        if (chosen == null || chosen.isBlank()) {
            return DEFAULT_SEED;
        }
        if (chosen.trim().equalsIgnoreCase("random")) {
            return new SplittableRandom().nextLong();
        }
        return Long.parseLong(chosen.trim());
    }

    /**
     * @param inSuite the time bound a property has in the test suite
     * @return {@code inSuite}, or the time {@link #SECONDS_PROPERTY} asks for
     */
    public static Duration time(Duration inSuite) {
        String chosen = System.getProperty(SECONDS_PROPERTY);
        return chosen == null || chosen.isBlank() ? inSuite : Duration.ofSeconds(Long.parseLong(chosen.trim()));
    }

    /**
     * @param inSuite the tries a property has in the test suite
     * @return {@code inSuite}, or no bound when {@link #SECONDS_PROPERTY} is set (the time bounds the run)
     */
    public static long tries(long inSuite) {
        String chosen = System.getProperty(SECONDS_PROPERTY);
        return chosen == null || chosen.isBlank() ? inSuite : Long.MAX_VALUE;
    }

    /** @return the random of trial {@code index} of a run with {@code seed} */
    public static SplittableRandom random(long seed, long index) {
        return new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (index + 1)));
    }

    /**
     * Runs trials 0, 1, ... until {@code tries} are done or {@code time} has passed ({@link #time} and
     * {@link #tries} apply the override).
     *
     * @return the number of trials run
     * @throws AssertionError from the first trial that failed, with its seed and index
     */
    public static long check(String property, long tries, Duration time, Trial trial) {
        Objects.requireNonNull(trial, "trial");
        long seed = seed();
        long deadline = System.nanoTime() + time(time).toNanos();
        long index = 0;
        long bound = tries(tries);
        for (; index < bound && System.nanoTime() - deadline < 0; index++) {
            try {
                trial.run(random(seed, index), index);
            } catch (Exception | AssertionError e) {
                throw new AssertionError(property + " failed in trial " + index + " of seed " + seed + " (repeat with -D"
                        + SEED_PROPERTY + "=" + seed + "): " + e, e);
            }
        }
        return index;
    }
}
