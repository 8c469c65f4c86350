package org.modmq.store.format;

/** A stored record whose bytes do not follow {@link MessageLayout}. */
public final class CorruptRecordException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public CorruptRecordException(String message) {
        super(message);
    }
}
