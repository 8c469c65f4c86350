package org.modmq.fuzz;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.modmq.fuzz.RequestCatalog.FieldKind;
import org.modmq.fuzz.RequestCatalog.Shape;

/**
 * Draws {@link FuzzRequest}s: mostly codes of the catalog with their header fields, each field present
 * with a plausible value, absent, or hostile, plus fields nobody knows; sometimes a code nobody serves;
 * with a language, version, flag and header type that are usually, not always, what a client sends.
 * Immutable and thread-safe; the randomness comes from the caller.
 */
public final class RequestGenerator {

    private final RequestCatalog catalog;
    private final FuzzWorld world;

    /**
     * @param catalog the codes to draw, with their shapes
     * @param world   the names and offsets to prefer
     */
    public RequestGenerator(RequestCatalog catalog, FuzzWorld world) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.world = Objects.requireNonNull(world, "world");
    }

    /** @return the names and offsets this generator prefers */
    public FuzzWorld world() {
        return world;
    }

    /** @return a new request with {@code opaque} */
    public FuzzRequest next(SplittableRandom random, int opaque) {
        int roll = random.nextInt(100);
        Shape shape = roll < 88 ? Values.pick(random, catalog.shapes()) : null;
        int code = shape != null ? shape.code() : unknownCode(random);
        Map<String, String> fields = shape != null ? fields(random, shape) : randomFields(random);
        byte[] body = BodyGenerator.body(random, shape != null ? shape.body() : RequestCatalog.BodyKind.ANY_JSON, world);
        if (shape != null && fields.containsKey("bodyCrc32") && Values.chance(random, 0.7)) {
            CRC32 crc = new CRC32();
            crc.update(body);
            fields.put("bodyCrc32", Long.toString(crc.getValue() & 0x7FFFFFFF));
        }
        int version = Values.chance(random, 0.85) ? FuzzRequest.VERSION_5_3_3
                : Values.pick(random, List.of(0, 37, 121, 399, 401, 413, 475, -1, Values.edgyInt(random)));
        int language = Values.chance(random, 0.9) ? 0 : random.nextInt(256);
        int flag = switch (random.nextInt(50)) {
            case 0, 1 -> FuzzRequest.FLAG_ONEWAY;
            case 2 -> FuzzRequest.FLAG_RESPONSE;
            case 3 -> Values.edgyInt(random) & ~FuzzRequest.FLAG_RESPONSE;
            default -> 0;
        };
        if (shape != null && shape.oneway()) {
            flag |= FuzzRequest.FLAG_ONEWAY;
        }
        String remark = Values.chance(random, 0.9) ? null : Values.hostile(random);
        boolean fitsBinary = fitsShort(code) && fitsShort(version);
        int type = fitsBinary && random.nextBoolean() ? 1 : 0;
        return new FuzzRequest(code, type, type == 1 ? language : Math.min(language, 20), version, opaque, flag, remark,
                fields, body);
    }

    private Map<String, String> fields(SplittableRandom random, Shape shape) {
        Map<String, String> fields = new LinkedHashMap<>();
        double absent = Values.chance(random, 0.5) ? 0.02 : 0.2;
        double hostile = Values.chance(random, 0.5) ? 0.03 : 0.25;
        for (Map.Entry<String, FieldKind> field : shape.fields().entrySet()) {
            double roll = random.nextDouble();
            if (roll < absent) {
                continue;
            }
            fields.put(field.getKey(), roll < absent + hostile ? Values.hostile(random)
                    : FieldValues.plausible(random, field.getValue(), world));
        }
        if (Values.chance(random, 0.1)) {
            fields.putAll(randomFields(random));
        }
        return fields;
    }

    private Map<String, String> randomFields(SplittableRandom random) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            fields.put(Values.chance(random, 0.7) ? Values.text(random, 1 + random.nextInt(12)) : Values.hostile(random),
                    Values.hostile(random));
        }
        return fields;
    }

    /** A code outside the catalog: near the known ranges, anywhere in int16, or any int. */
    private int unknownCode(SplittableRandom random) {
        for (int attempt = 0; attempt < 8; attempt++) {
            int code = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(1100);
                case 1 -> random.nextInt(65_536) - 32_768;
                case 2 -> 200_000 + random.nextInt(200);
                default -> random.nextInt();
            };
            if (!catalog.knows(code)) {
                return code;
            }
        }
        return -12_345;
    }

    private static boolean fitsShort(int value) {
        return value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
    }
}
