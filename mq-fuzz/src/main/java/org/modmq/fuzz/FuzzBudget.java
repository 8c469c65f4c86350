package org.modmq.fuzz;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a fuzz run may go on: at most {@code tries} trials and at most {@code time}, whichever ends
 * first; each answer (or close) is awaited at most {@code answerTimeout}. Immutable.
 *
 * @param tries         most trials
 * @param time          most wall-clock time for all trials
 * @param answerTimeout longest wait for one answer or close
 */
public record FuzzBudget(long tries, Duration time, Duration answerTimeout) {

    /** Checks the bounds. */
    public FuzzBudget {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(answerTimeout, "answerTimeout");
        if (tries < 1 || time.isNegative() || time.isZero() || answerTimeout.isNegative() || answerTimeout.isZero()) {
            throw new IllegalArgumentException("a fuzz budget needs tries >= 1 and positive durations: " + tries
                    + ", " + time + ", " + answerTimeout);
        }
    }
}
