package org.modmq.fuzz;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Spoils well-formed frames the ways broken or hostile peers do: a length field that lies (zero,
 * negative, past the maximum, a little off), a header-length word with another serialize type or a
 * header length that does not fit, a frame cut short or sent with more bytes than it claims, single
 * bits flipped, header bytes overwritten, or bytes that are no frame at all. Stateless.
 */
public final class FrameMutator {

    /** The kinds of damage. */
    public enum Kind {
        LENGTH_FIELD, SERIALIZE_TYPE, HEADER_LENGTH, TRUNCATED, TRAILING_BYTES, OVERSIZED_HEADER, BIT_FLIPS,
        HEADER_OVERWRITE, RANDOM_BYTES
    }

    /**
     * A spoiled frame.
     *
     * @param kind  what was done
     * @param bytes the bytes to send
     */
    public record Mutated(Kind kind, byte[] bytes) {
    }

    private FrameMutator() {
    }

    /** @return {@code frame} (a complete, well-formed frame) spoiled one way, chosen at random */
    public static Mutated mutate(SplittableRandom random, byte[] frame) {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        byte[] bytes = frame.clone();
        int length = FrameShape.readInt(frame, 0);
        int headerLength = FrameShape.readInt(frame, 4) & 0xFFFFFF;
        switch (kind) {
            case LENGTH_FIELD -> putInt(bytes, 0, switch (random.nextInt(7)) {
                case 0 -> 0;
                case 1 -> -1 - random.nextInt(1000);
                case 2 -> FrameShape.MAX_FRAME_LENGTH + 1 + random.nextInt(1 << 20);
                case 3 -> Integer.MAX_VALUE;
                case 4 -> random.nextInt(4);
                default -> Math.max(0, length + random.nextInt(33) - 16);
            });
            case SERIALIZE_TYPE -> bytes[4] = (byte) (random.nextInt(4) == 0 ? (bytes[4] ^ 1) : random.nextInt(256));
            case HEADER_LENGTH -> {
                int newLength = switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> 0xFFFFFF;
                    case 2 -> length - 4 + 1 + random.nextInt(16);
                    default -> Math.max(0, headerLength + random.nextInt(17) - 8);
                };
                bytes[5] = (byte) (newLength >>> 16);
                bytes[6] = (byte) (newLength >>> 8);
                bytes[7] = (byte) newLength;
            }
            case TRUNCATED -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case TRAILING_BYTES -> {
                byte[] extra = Values.bytes(random, 1 + random.nextInt(64));
                bytes = Arrays.copyOf(bytes, bytes.length + extra.length);
                System.arraycopy(extra, 0, bytes, frame.length, extra.length);
            }
            case OVERSIZED_HEADER -> {
                // Claims a header and a frame larger than what follows: the receiver waits for, then reads, garbage.
                int claimed = headerLength + 1 + random.nextInt(4096);
                putInt(bytes, 0, length + (claimed - headerLength));
                putInt(bytes, 4, (bytes[4] << 24) | claimed);
            }
            case BIT_FLIPS -> {
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    int at = 8 + random.nextInt(Math.max(1, bytes.length - 8));
                    if (at < bytes.length) {
                        bytes[at] ^= (byte) (1 << random.nextInt(8));
                    }
                }
            }
            case HEADER_OVERWRITE -> {
                if (headerLength > 0) {
                    int from = 8 + random.nextInt(headerLength);
                    int to = Math.min(8 + headerLength, from + 1 + random.nextInt(16));
                    byte[] noise = Values.bytes(random, to - from);
                    System.arraycopy(noise, 0, bytes, from, noise.length);
                }
            }
            case RANDOM_BYTES -> bytes = Values.bytes(random, 1 + random.nextInt(random.nextBoolean() ? 16 : 512));
        }
        return new Mutated(kind, bytes);
    }

    private static void putInt(byte[] bytes, int at, int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }
}
