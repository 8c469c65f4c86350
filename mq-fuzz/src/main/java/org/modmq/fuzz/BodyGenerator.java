package org.modmq.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.modmq.fuzz.RequestCatalog.BodyKind;

/**
 * Request bodies of each {@link BodyKind}: shaped like the stock client's (a batch of message records,
 * the JSON documents of heartbeats, locks, groups, topics and registrations, {@code key=value} lines)
 * and then, often, spoiled. Stateless.
 */
final class BodyGenerator {

    private BodyGenerator() {
    }

    static byte[] body(SplittableRandom random, BodyKind kind, FuzzWorld world) {
        return switch (kind) {
            case NONE -> Values.chance(random, 0.9) ? new byte[0] : Values.bytes(random, Values.size(random));
            case MESSAGE -> Values.chance(random, 0.5) ? Values.bytes(random, Values.size(random))
                    : Values.utf8(Values.text(random, Values.size(random)));
            case BATCH -> batch(random, world);
            case CONFIG_PROPERTIES -> configLines(random, world);
            default -> json(random, tree(random, kind, world));
        };
    }

    /** JSON text of {@code tree}: as is, spoiled in structure, or spoiled as text. */
    private static byte[] json(SplittableRandom random, Object tree) {
        int roll = random.nextInt(100);
        if (roll < 50) {
            return Values.utf8(JsonText.write(tree));
        }
        if (roll < 85) {
            return Values.utf8(JsonText.write(JsonText.spoil(random, tree, 1 + random.nextInt(3))));
        }
        return JsonText.spoilText(random, Values.utf8(JsonText.write(tree)));
    }

    private static Object tree(SplittableRandom random, BodyKind kind, FuzzWorld world) {
        return switch (kind) {
            case HEARTBEAT -> heartbeat(random, world);
            case LOCK -> map("consumerGroup", group(random, world), "clientId", "127.0.0.1@fuzz",
                    "mqSet", List.of(queue(random, world), queue(random, world)));
            case SUBSCRIPTION_GROUP -> subscriptionGroup(random, world);
            case SUBSCRIPTION_GROUP_LIST -> map("groupConfigList", List.of(subscriptionGroup(random, world)));
            case TOPIC_CONFIG_LIST -> map("topicConfigList", List.of(topicConfig(random, world)));
            case REGISTER_BROKER -> map("filterServerList", List.of(), "topicConfigSerializeWrapper",
                    map("dataVersion", dataVersion(random), "topicConfigTable",
                            map(topic(random, world), topicConfig(random, world))));
            case DATA_VERSION -> dataVersion(random);
            case TOPIC_ROUTE -> map("brokerDatas", List.of(map("cluster", Values.pick(random, world.clusters()),
                    "brokerName", Values.pick(random, world.brokerNames()), "brokerAddrs",
                    map("0", "127.0.0.1:" + (1 + random.nextInt(65_535))))), "queueDatas",
                    List.of(map("brokerName", Values.pick(random, world.brokerNames()), "readQueueNums", 4,
                            "writeQueueNums", 4, "perm", 6, "topicSysFlag", 0)));
            case CLIENT_CONFIG -> map("clientId", "127.0.0.1@fuzz", "group", group(random, world),
                    "subscriptionData", subscription(random, world));
            default -> JsonText.anyValue(random, 3);
        };
    }

    private static Map<String, Object> heartbeat(SplittableRandom random, FuzzWorld world) {
        List<Object> consumers = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            consumers.add(map("groupName", group(random, world), "consumeType",
                    random.nextBoolean() ? "CONSUME_PASSIVELY" : "CONSUME_ACTIVELY", "messageModel",
                    random.nextBoolean() ? "CLUSTERING" : "BROADCASTING", "consumeFromWhere",
                    "CONSUME_FROM_LAST_OFFSET", "subscriptionDataSet", List.of(subscription(random, world)),
                    "unitMode", false));
        }
        List<Object> producers = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            producers.add(map("groupName", group(random, world)));
        }
        return map("clientID", "127.0.0.1@fuzz-" + random.nextInt(4), "consumerDataSet", consumers,
                "producerDataSet", producers, "heartbeatFingerprint", 0);
    }

    private static Map<String, Object> subscription(SplittableRandom random, FuzzWorld world) {
        return map("topic", topic(random, world), "subString", random.nextBoolean() ? "*" : "TagA || TagB",
                "tagsSet", List.of("TagA"), "codeSet", List.of(2598919), "subVersion", random.nextLong(1L << 41),
                "expressionType", random.nextBoolean() ? "TAG" : "SQL92");
    }

    private static Map<String, Object> subscriptionGroup(SplittableRandom random, FuzzWorld world) {
        return map("groupName", group(random, world), "consumeEnable", true, "consumeFromMinEnable", true,
                "consumeBroadcastEnable", true, "consumeMessageOrderly", false, "retryQueueNums",
                random.nextInt(4), "retryMaxTimes", random.nextInt(20) - 2, "brokerId", 0,
                "whichBrokerWhenConsumeSlowly", 1, "notifyConsumerIdsChangedEnable", true);
    }

    private static Map<String, Object> topicConfig(SplittableRandom random, FuzzWorld world) {
        String topic = topic(random, world);
        return map("topicName", topic, "readQueueNums", random.nextInt(20) - 2, "writeQueueNums",
                random.nextInt(20) - 2, "perm", random.nextInt(8), "topicFilterType", "SINGLE_TAG", "topicSysFlag", 0,
                "order", false, "attributes", map());
    }

    private static Map<String, Object> dataVersion(SplittableRandom random) {
        return map("counter", Values.edgyLong(random), "stateVersion", 0, "timestamp", Values.edgyLong(random));
    }

    private static Map<String, Object> queue(SplittableRandom random, FuzzWorld world) {
        return map("topic", topic(random, world), "brokerName", Values.pick(random, world.brokerNames()),
                "queueId", random.nextInt(8));
    }

    private static String topic(SplittableRandom random, FuzzWorld world) {
        return FieldValues.plausible(random, RequestCatalog.FieldKind.TOPIC, world);
    }

    private static String group(SplittableRandom random, FuzzWorld world) {
        return FieldValues.plausible(random, RequestCatalog.FieldKind.GROUP, world);
    }

    /** {@code key=value} lines for the config updates, sometimes not lines at all. */
    private static byte[] configLines(SplittableRandom random, FuzzWorld world) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(4); i > 0; i--) {
            String value = switch (random.nextInt(4)) {
                case 0 -> random.nextBoolean() ? "true" : "false";
                case 1 -> Integer.toString(Values.edgyInt(random));
                case 2 -> Integer.toString(random.nextInt(8));
                default -> Values.hostile(random);
            };
            text.append(Values.pick(random, world.configKeys())).append(random.nextInt(10) == 0 ? ':' : '=')
                    .append(value).append('\n');
        }
        byte[] lines = Values.utf8(text.toString());
        return Values.chance(random, 0.85) ? lines : JsonText.spoilText(random, lines);
    }

    /**
     * A batch body (docs/protocol.md section 5.6): per message TOTALSIZE, MAGICCODE 0, BODYCRC 0,
     * FLAG, BODY length and bytes, PROPERTIES length (int16) and text; then, often, spoiled: a length
     * that lies, a record cut short, garbage behind the last record.
     */
    private static byte[] batch(SplittableRandom random, FuzzWorld world) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Integer> sizeFields = new ArrayList<>();
        for (int i = 1 + random.nextInt(4); i > 0; i--) {
            byte[] body = Values.bytes(random, random.nextInt(64));
            byte[] properties = Values.utf8(FieldValues.properties(random, world));
            int total = 4 + 4 + 4 + 4 + 4 + body.length + 2 + properties.length;
            sizeFields.add(out.size());
            writeInt(out, total);
            writeInt(out, 0);
            writeInt(out, 0);
            writeInt(out, random.nextInt(4) == 0 ? random.nextInt() : 0);
            writeInt(out, body.length);
            out.writeBytes(body);
            out.write(properties.length >>> 8);
            out.write(properties.length);
            out.writeBytes(properties);
        }
        byte[] batch = out.toByteArray();
        switch (random.nextInt(8)) {
            case 0 -> {
                int at = Values.pick(random, sizeFields) + 4 * random.nextInt(5);
                int lie = Values.edgyInt(random);
                batch[at] = (byte) (lie >>> 24);
                batch[at + 1] = (byte) (lie >>> 16);
                batch[at + 2] = (byte) (lie >>> 8);
                batch[at + 3] = (byte) lie;
            }
            case 1 -> batch = java.util.Arrays.copyOf(batch, random.nextInt(batch.length));
            case 2 -> {
                byte[] longer = java.util.Arrays.copyOf(batch, batch.length + 1 + random.nextInt(32));
                System.arraycopy(Values.bytes(random, longer.length - batch.length), 0, longer, batch.length,
                        longer.length - batch.length);
                batch = longer;
            }
            case 3 -> batch[random.nextInt(batch.length)] ^= (byte) (1 << random.nextInt(8));
            default -> {
                // unchanged: a well-formed batch
            }
        }
        return batch;
    }

    private static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }

    /** A map of alternating keys and values, in order. */
    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
