package org.modmq.store.faulty.control;

/** A segment operation a fault can be injected into. */
public enum Operation {
    /** {@code StorageBackend.open}: creating or opening a segment file. */
    OPEN,
    /** {@code Segment.write}: the first half of the bytes lands, then the error (a torn write). */
    WRITE,
    /** {@code Segment.flush}: nothing becomes durable. */
    FORCE,
    /** {@code Segment.read}: no view is handed out. */
    READ
}
