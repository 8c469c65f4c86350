package org.modmq.fuzz;

import java.util.List;
import java.util.SplittableRandom;
import org.modmq.fuzz.RequestCatalog.FieldKind;

/**
 * Plausible values of each {@link FieldKind}: what a client could send, from the world's names and
 * the edges of each range. {@link RequestGenerator} mixes them with hostile ones. Stateless.
 */
final class FieldValues {

    private static final List<String> PROPERTY_NAMES = List.of("TAGS", "KEYS", "UNIQ_KEY", "WAIT", "DELAY",
            "TIMER_DELAY_SEC", "TIMER_DELAY_MS", "TIMER_DELIVER_MS", "TRAN_MSG", "PGROUP", "REAL_TOPIC", "REAL_QID",
            "RETRY_TOPIC", "MAX_RECONSUME_TIMES", "RECONSUME_TIME", "CORRELATION_ID", "REPLY_TO_CLIENT", "TTL",
            "MSG_TYPE", "__SHARDINGKEY", "INSTANCE_ID", "CLUSTER");
    private static final List<String> EXPRESSIONS = List.of("*", "TagA", "TagA || TagB", " || ", "a > 1",
            "TAGS is not null", "a between 1 and", "(((", "");

    private FieldValues() {
    }

    static String plausible(SplittableRandom random, FieldKind kind, FuzzWorld world) {
        return switch (kind) {
            case TOPIC -> name(random, world.topics());
            case GROUP -> name(random, world.groups());
            case BROKER_NAME -> name(random, world.brokerNames());
            case CLUSTER -> name(random, world.clusters());
            case QUEUE_ID -> Integer.toString(Values.chance(random, 0.9) ? random.nextInt(8) : Values.edgyInt(random));
            case INT -> Integer.toString(Values.edgyInt(random));
            case LONG -> Long.toString(Values.edgyLong(random));
            case OFFSET -> Long.toString(offset(random, world));
            case TIMESTAMP -> Long.toString(switch (random.nextInt(4)) {
                case 0 -> 0L;
                case 1 -> Long.MAX_VALUE;
                default -> 1_796_000_000_000L + random.nextLong(100_000_000_000L);
            });
            case HOLD_MILLIS -> Integer.toString(random.nextInt(500));
            case BOOL -> random.nextBoolean() ? "true" : "false";
            case PROPERTIES -> properties(random, world);
            case EXPRESSION -> Values.pick(random, EXPRESSIONS);
            case EXPRESSION_TYPE -> Values.pick(random, List.of("TAG", "SQL92", "tag", "XPATH"));
            case MSG_ID -> msgId(random, world);
            case TEXT -> Values.text(random, random.nextInt(24));
            case CLIENT_ID -> "127.0.0.1@fuzz-" + random.nextInt(4);
            case ADDR -> "127.0.0.1:" + (1 + random.nextInt(65_535));
            case PERM -> Integer.toString(Values.chance(random, 0.7) ? 6 : random.nextInt(16));
            case SYS_FLAG -> Integer.toString(Values.chance(random, 0.7) ? 0 : random.nextInt(256));
            case BROKER_ID -> Long.toString(Values.chance(random, 0.8) ? random.nextInt(3) : Values.edgyLong(random));
            case CRC -> Integer.toString(random.nextInt(Integer.MAX_VALUE));
        };
    }

    private static String name(SplittableRandom random, List<String> known) {
        int roll = random.nextInt(10);
        if (roll < 7) {
            return Values.pick(random, known);
        }
        if (roll < 9) {
            return "fuzz-" + Values.text(random, 1 + random.nextInt(12)).replaceAll("[^A-Za-z0-9_-]", "x");
        }
        // Longer than RocketMQ allows (127 for topics, 255 for groups), or with characters it refuses.
        return random.nextBoolean() ? "T".repeat(120 + random.nextInt(300)) : Values.text(random, 1 + random.nextInt(20));
    }

    private static long offset(SplittableRandom random, FuzzWorld world) {
        return switch (random.nextInt(6)) {
            case 0, 1 -> Values.pick(random, world.offsets());
            case 2 -> Values.pick(random, world.offsets()) + 1 + random.nextInt(64);
            case 3 -> Values.edgyLong(random);
            default -> random.nextInt(64);
        };
    }

    /** An offsetMsgId: host 127.0.0.1, a port, a CommitLog offset, as 32 hex digits; or something like it. */
    private static String msgId(SplittableRandom random, FuzzWorld world) {
        String id = String.format("7F000001%08X%016X", random.nextInt(65_536), offset(random, world));
        return switch (random.nextInt(5)) {
            case 0 -> id.substring(0, random.nextInt(id.length()));
            case 1 -> id.toLowerCase(java.util.Locale.ROOT);
            case 2 -> "ZZ" + id.substring(2);
            default -> id;
        };
    }

    /** RocketMQ's message property string ({@code name \u0001 value \u0002} ...), sometimes malformed. */
    static String properties(SplittableRandom random, FuzzWorld world) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
            String name = Values.chance(random, 0.85) ? Values.pick(random, PROPERTY_NAMES) : Values.text(random, 4);
            String value = switch (name) {
                case "DELAY" -> Integer.toString(random.nextInt(30) - 2);
                case "TIMER_DELAY_SEC", "TIMER_DELAY_MS", "TIMER_DELIVER_MS" -> Long.toString(Values.edgyLong(random));
                case "WAIT", "TRAN_MSG" -> random.nextBoolean() ? "true" : "false";
                case "REAL_TOPIC", "RETRY_TOPIC" -> Values.pick(random, world.topics());
                case "PGROUP" -> Values.pick(random, world.groups());
                default -> Values.chance(random, 0.8) ? Values.text(random, 1 + random.nextInt(16))
                        : Values.hostile(random);
            };
            text.append(name).append(Values.chance(random, 0.95) ? '\u0001' : '=').append(value)
                    .append(Values.chance(random, 0.95) ? '\u0002' : '\u0001');
        }
        return text.toString();
    }
}
