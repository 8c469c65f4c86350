package org.modmq.fuzz;

import java.util.Arrays;

/**
 * How to send a byte string that may not be whole frames so that the server's verdict comes at once:
 * the stream is cut into frames by the framing rules; a last frame that is merely incomplete is padded
 * with zeros when few bytes are missing, else the connection is half-closed after it (a server never
 * waits for 16 MiB that will not come). Immutable.
 *
 * @param first    the shape of the first frame (the one a fuzz trial made)
 * @param bytes    what to send: the input, plus padding
 * @param broken   whether some frame breaks the framing rules (the server must close)
 * @param shutdown whether to half-close after sending (too much is missing to pad)
 */
public record SendPlan(FrameShape first, byte[] bytes, boolean broken, boolean shutdown) {

    /** Most zero bytes added to complete a frame. */
    public static final int PAD_LIMIT = 64 * 1024;

    /** Plans the sending of {@code input}. */
    public static SendPlan of(byte[] input) {
        FrameShape first = FrameShape.of(input);
        int at = 0;
        while (true) {
            byte[] rest = at == 0 ? input : Arrays.copyOfRange(input, at, input.length);
            if (rest.length == 0) {
                return new SendPlan(first, input, false, false);
            }
            FrameShape shape = FrameShape.of(rest);
            switch (shape.kind()) {
                case COMPLETE -> at += shape.end();
                case INCOMPLETE -> {
                    if (shape.missing() > PAD_LIMIT) {
                        return new SendPlan(first, input, false, true);
                    }
                    // Padding completes the frame, or only its length field (which may then ask for more),
                    // or a frame whose type or header length is wrong: judge the padded bytes again.
                    return of(Arrays.copyOf(input, input.length + (int) shape.missing()));
                }
                default -> {
                    return new SendPlan(first, input, true, false);
                }
            }
        }
    }

    /** @return whether the first frame itself breaks the framing rules (it can never be processed) */
    public boolean firstBroken() {
        return first.kind().broken();
    }
}
