package org.modmq.remoting.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.modmq.fuzz.FrameMutator;
import org.modmq.fuzz.FrameWriter;
import org.modmq.fuzz.FuzzRequest;
import org.modmq.fuzz.FuzzWorld;
import org.modmq.fuzz.JsonText;
import org.modmq.fuzz.RequestCatalog;
import org.modmq.fuzz.RequestGenerator;
import org.modmq.fuzz.Trials;
import org.modmq.fuzz.Values;
import org.modmq.remoting.protocol.LanguageCode;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.SerializeType;
import org.modmq.testkit.NettyLeakCheck;

/**
 * Property-based fuzzing of the frame decoder and both header codecs (seeded, bounded by tries and time;
 * {@code -Dmodmq.fuzz.seed=<n>|random} picks the seed): whatever bytes arrive, in whatever pieces, the
 * decoder yields commands or fails once with a {@link RemotingFrameException}, releases every buffer it
 * was given, returns what it held to the memory budget, and every command it yields re-encodes to a frame
 * that decodes to the same command and re-encodes to the same bytes.
 */
@ExtendWith(NettyLeakCheck.class)
class FrameDecoderFuzzTest {

    private static final Duration TIME = Duration.ofMillis(1500);
    private static final int MAX_FRAME = 1024 * 1024;
    private static final RequestGenerator REQUESTS = new RequestGenerator(
            RequestCatalog.BROKER.and(RequestCatalog.NAMESRV), FuzzWorld.defaults());

    /** A decoded command's every field, comparable. */
    private record Fields(int code, LanguageCode language, int version, int opaque, int flag, String remark,
                          Map<String, String> extFields, String body, SerializeType type) {
        static Fields of(RemotingCommand command) {
            return new Fields(command.code(), command.language(), command.version(), command.opaque(), command.flag(),
                    command.remark(), Map.copyOf(command.extFields()), ByteBufUtil.hexDump(command.body()),
                    command.serializeType());
        }
    }

    @Test
    void anyByteStreamYieldsCommandsOrOneFrameErrorAndReleasesEverything() {
        FrameMemoryBudget budget = new FrameMemoryBudget(64L * 1024 * 1024);
        long trials = Trials.check("decoder on arbitrary streams", 20_000, TIME, (random, index) -> {
            byte[] stream = stream(random);
            List<ByteBuf> given = new ArrayList<>();
            EmbeddedChannel channel = new EmbeddedChannel(new RemotingFrameDecoder(MAX_FRAME, budget, 0));
            Throwable failure = null;
            int at = 0;
            while (at < stream.length) {
                int piece = Math.min(stream.length - at, 1 + (random.nextBoolean() ? random.nextInt(16)
                        : random.nextInt(stream.length)));
                ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer(piece).writeBytes(stream, at, piece);
                given.add(buf);
                at += piece;
                try {
                    channel.writeInbound(buf);
                } catch (RuntimeException e) {
                    assertThat(failure).as("a second failure after the first %s", failure).isNull();
                    failure = e;
                }
            }
            if (failure != null) {
                assertThat(failure).as("only frame errors escape the decoder").isInstanceOf(RemotingFrameException.class);
            }
            for (Object out = channel.readInbound(); out != null; out = channel.readInbound()) {
                reencodesToItself((RemotingCommand) out);
            }
            channel.finishAndReleaseAll();
            assertThat(given).as("every buffer handed to the decoder is released").allSatisfy(
                    buf -> assertThat(buf.refCnt()).isZero());
            assertThat(budget.used()).as("bytes still counted against the budget").isZero();
        });
        assertThat(trials).isPositive();
    }

    @Test
    void wellFormedFramesOfEitherHeaderTypeDecodeAndReencodeByteForByte() {
        Trials.check("well-formed frames round trip", 20_000, TIME, (random, index) -> {
            FuzzRequest request = REQUESTS.next(random, random.nextInt());
            RemotingCommand command = commandOf(request);
            ByteBuf frame = Unpooled.buffer();
            RemotingCommandEncoder.encodeFrame(command, request.body().length, frame);
            frame.writeBytes(request.body());
            byte[] encoded = ByteBufUtil.getBytes(frame);
            frame.release();
            RemotingCommand decoded = decodeOne(encoded);
            assertThat(Fields.of(decoded)).isEqualTo(Fields.of(command));
            assertThat(encode(decoded)).as("re-encoded").isEqualTo(encoded);
            // An encoder written apart from ours (the fuzz module's) agrees on what the frame says.
            assertThat(Fields.of(decodeOne(FrameWriter.frame(request)))).isEqualTo(Fields.of(command));
        });
    }

    @Test
    void headerCodecsRefuseGarbageOnlyWithAFrameError() {
        Trials.check("header codecs on garbage", 50_000, TIME, (random, index) -> {
            FuzzRequest request = REQUESTS.next(random, random.nextInt());
            byte[] header = random.nextBoolean() ? FrameWriter.jsonHeader(request) : FrameWriter.rocketMqHeader(request);
            byte[] spoiled = switch (random.nextInt(3)) {
                case 0 -> JsonText.spoilText(random, header);
                case 1 -> Values.bytes(random, random.nextInt(64));
                default -> flip(random, header);
            };
            for (boolean json : new boolean[] {true, false}) {
                ByteBuf buf = Unpooled.wrappedBuffer(spoiled);
                try {
                    RemotingCommand command = json ? JsonHeaderCodec.decode(buf) : RocketMqHeaderCodec.decode(buf);
                    assertThat(command).isNotNull();
                } catch (RemotingFrameException expected) {
                    assertThat(expected.getMessage()).isNotBlank();
                } finally {
                    buf.release();
                }
            }
        });
    }

    /** A byte stream: well-formed frames, spoiled ones and random bytes, one after another. */
    private static byte[] stream(SplittableRandom random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            byte[] frame = FrameWriter.frame(REQUESTS.next(random, random.nextInt()));
            switch (random.nextInt(4)) {
                case 0 -> out.writeBytes(frame);
                case 1 -> out.writeBytes(Values.bytes(random, random.nextInt(48)));
                default -> out.writeBytes(FrameMutator.mutate(random, frame).bytes());
            }
        }
        return out.toByteArray();
    }

    private static byte[] flip(SplittableRandom random, byte[] bytes) {
        byte[] flipped = bytes.clone();
        for (int i = 1 + random.nextInt(3); i > 0 && flipped.length > 0; i--) {
            flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
        }
        return flipped;
    }

    /** Encode, decode, encode: the second frame equals the first and both decode to the command's fields. */
    private static void reencodesToItself(RemotingCommand command) {
        byte[] once = encode(command);
        RemotingCommand again = decodeOne(once);
        assertThat(Fields.of(again)).isEqualTo(Fields.of(command));
        assertThat(encode(again)).isEqualTo(once);
    }

    private static byte[] encode(RemotingCommand command) {
        ByteBuf frame = Unpooled.buffer();
        try {
            RemotingCommandEncoder.encodeFrame(command, command.body().length, frame);
            frame.writeBytes(command.body());
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    private static RemotingCommand decodeOne(byte[] frame) {
        EmbeddedChannel channel = new EmbeddedChannel(new RemotingFrameDecoder(RemotingFrameLayout.DEFAULT_MAX_FRAME_LENGTH));
        try {
            channel.writeInbound(Unpooled.wrappedBuffer(frame));
            RemotingCommand command = channel.readInbound();
            assertThat(command).as("a command from a whole frame").isNotNull();
            assertThat((Object) channel.readInbound()).as("one frame, one command").isNull();
            return command;
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    /** The command a client would build from {@code request}. */
    private static RemotingCommand commandOf(FuzzRequest request) {
        RemotingCommand command = RemotingCommand.decoded().setCode(request.code())
                .setLanguage(LanguageCode.fromCode(request.serializeType() == 1 ? (byte) request.language()
                        : request.language()))
                .setVersion(request.serializeType() == 1 ? (short) request.version() : request.version())
                .setOpaque(request.opaque()).setFlag(request.flag())
                .setSerializeType(request.serializeType() == 1 ? SerializeType.ROCKETMQ : SerializeType.JSON);
        boolean binary = request.serializeType() == 1;
        // The binary header carries UTF-8 and reads an empty remark, key or value as absent.
        String remark = binary ? utf8(request.remark()) : request.remark();
        command.setRemark(binary && remark != null && remark.isEmpty() ? null : remark);
        request.extFields().forEach((key, value) -> {
            if (!binary) {
                command.putExtField(key, value);
            } else if (!key.isEmpty() && !value.isEmpty()) {
                command.putExtField(utf8(key), utf8(value));
            }
        });
        return command.withBody(request.body());
    }

    /** What UTF-8 keeps of {@code text}: a lone surrogate becomes '?'. */
    private static String utf8(String text) {
        return text == null ? null : new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }
}
