package org.modmq.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FuzzGeneratorsTest {

    @Test
    void writesTheObservedRocketMqFrameByteForByte() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("k", "v");
        FuzzRequest response = new FuzzRequest(0, 1, 0, 0, 4, 1, "ok", fields, new byte[0]);
        assertThat(HexFormat.of().formatHex(FrameWriter.frame(response))).isEqualTo("00000023" + "0100001f" + "0000"
                + "00" + "0000" + "00000004" + "00000001" + "00000002" + "6f6b" + "00000008" + "0001" + "6b"
                + "00000001" + "76");
    }

    @Test
    void writesJsonHeadersInTheStockClientsKeyOrderWithEscapes() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("topic", "T\"\u0001");
        FuzzRequest request = new FuzzRequest(105, 0, 0, 479, 7, 0, null, fields, new byte[0]);
        assertThat(new String(FrameWriter.jsonHeader(request), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(
                "{\"code\":105,\"extFields\":{\"topic\":\"T\\\"\\u0001\"},\"flag\":0,\"language\":\"JAVA\","
                        + "\"opaque\":7,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}");
    }

    @Test
    void judgesTheFirstFrameByTheFramingRules() {
        byte[] frame = FrameWriter.frame(FuzzRequest.of(34, 1, Map.of(), new byte[3]));
        assertThat(FrameShape.of(frame).kind()).isEqualTo(FrameShape.Kind.COMPLETE);
        assertThat(FrameShape.of(frame).end()).isEqualTo(frame.length);
        assertThat(FrameShape.of(java.util.Arrays.copyOf(frame, 10))).isEqualTo(
                new FrameShape(FrameShape.Kind.INCOMPLETE, frame.length - 10, -1));
        byte[] typed = frame.clone();
        typed[4] = 7;
        assertThat(FrameShape.of(typed).kind()).isEqualTo(FrameShape.Kind.BAD_TYPE);
        byte[] huge = frame.clone();
        huge[0] = 0x7f;
        assertThat(FrameShape.of(huge).kind()).isEqualTo(FrameShape.Kind.BAD_LENGTH);
    }

    @Test
    void padsAShortIncompleteFrameAndHalfClosesALongOne() {
        byte[] frame = FrameWriter.frame(FuzzRequest.of(34, 1, Map.of(), new byte[100]));
        SendPlan padded = SendPlan.of(java.util.Arrays.copyOf(frame, 20));
        assertThat(padded.bytes()).hasSize(frame.length);
        assertThat(padded.shutdown()).isFalse();
        byte[] claimsMore = frame.clone();
        claimsMore[1] = 0x10;
        SendPlan halfClose = SendPlan.of(claimsMore);
        assertThat(halfClose.shutdown()).isTrue();
        assertThat(halfClose.bytes()).isEqualTo(claimsMore);
        // Padding the length field out to four bytes can make it ask for megabytes: half-close then too.
        SendPlan lengthOnly = SendPlan.of(new byte[] {0x00, 0x21, 0x66});
        assertThat(lengthOnly.shutdown()).isTrue();
        assertThat(lengthOnly.bytes()).containsExactly(0x00, 0x21, 0x66, 0x00);
        assertThat(lengthOnly.first().kind()).isEqualTo(FrameShape.Kind.INCOMPLETE);
    }

    @Test
    void oneSeedDrawsOneSequence() {
        RequestGenerator generator = new RequestGenerator(RequestCatalog.BROKER.and(RequestCatalog.NAMESRV),
                FuzzWorld.defaults());
        for (long seed = 0; seed < 200; seed++) {
            byte[] first = FrameWriter.frame(generator.next(new SplittableRandom(seed), 1));
            byte[] second = FrameWriter.frame(generator.next(new SplittableRandom(seed), 1));
            assertThat(second).isEqualTo(first);
            FrameMutator.Mutated a = FrameMutator.mutate(new SplittableRandom(seed), first);
            assertThat(FrameMutator.mutate(new SplittableRandom(seed), first)).satisfies(
                    b -> assertThat(b.bytes()).isEqualTo(a.bytes()));
        }
    }
}
