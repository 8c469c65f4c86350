package org.modmq.remoting.protocol;

import io.netty.buffer.ByteBuf;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One remoting command: a request or a response, as carried by one frame.
 *
 * <p>Threading: not thread-safe. A command is built by one thread and then handed over (to the
 * remoting layer for sending, or to a processor after decoding); the hand-over publishes it.
 *
 * <p>Body: a received command always has its body as {@code byte[]} ({@link #body()}, empty if
 * none). An outgoing command may instead carry a {@link ByteBuf} body ({@link #withBody(ByteBuf)})
 * so that stored bytes can be sent without copying. <b>Ownership</b>: the command owns that buffer
 * from {@code withBody(ByteBuf)} on; the encoder takes it over ({@link #detachBodyBuf()}) and
 * Netty releases it after writing; if the command is never written (channel closed, one-way
 * request, dropped response) the remoting layer calls {@link #releaseBody()}. Code that builds a
 * command with a buffer body and then decides not to send it must call {@link #releaseBody()}.
 */
public final class RemotingCommand {

    /** Flag bit 0: this command is a response. */
    public static final int FLAG_RESPONSE = 1;
    /** Flag bit 1: this request is one-way (no response is sent). */
    public static final int FLAG_ONEWAY = 2;
    /** The version ordinal we announce: RocketMQ 5.3.3. */
    public static final int CURRENT_VERSION = 479;

    private static final AtomicInteger OPAQUE = new AtomicInteger();

    private int code;
    private LanguageCode language = LanguageCode.JAVA;
    private int version = CURRENT_VERSION;
    private int opaque;
    private int flag;
    private String remark;
    private final Map<String, String> extFields = new LinkedHashMap<>();
    private byte[] body = new byte[0];
    private ByteBuf bodyBuf;
    private SerializeType serializeType = SerializeType.JSON;

    private RemotingCommand(int code) {
        this.code = code;
    }

    /**
     * A new request with the next opaque of this process, language JAVA, version 479, JSON.
     *
     * @param code a {@link RequestCode}
     * @return the request
     */
    public static RemotingCommand request(int code) {
        RemotingCommand command = new RemotingCommand(code);
        command.opaque = OPAQUE.getAndIncrement();
        return command;
    }

    /**
     * A new request carrying the given header fields (null values are skipped).
     *
     * @param code a {@link RequestCode}
     * @param extFields header fields, copied
     * @return the request
     */
    public static RemotingCommand request(int code, Map<String, String> extFields) {
        RemotingCommand command = request(code);
        Objects.requireNonNull(extFields, "extFields").forEach(command::putExtField);
        return command;
    }

    /**
     * A response to {@code request}: copies its opaque and serialize type and sets the response flag.
     *
     * @param request the request being answered
     * @param code a {@link ResponseCode}
     * @param remark the remark, may be null
     * @return the response
     */
    public static RemotingCommand responseTo(RemotingCommand request, int code, String remark) {
        Objects.requireNonNull(request, "request");
        RemotingCommand command = new RemotingCommand(code);
        command.opaque = request.opaque;
        command.flag = FLAG_RESPONSE;
        command.remark = remark;
        command.serializeType = request.serializeType;
        return command;
    }

    /**
     * A blank command for decoders: code 0, no opaque drawn from the counter.
     *
     * @return a command whose fields the caller fills in
     */
    public static RemotingCommand decoded() {
        return new RemotingCommand(0);
    }

    /** @return the next opaque of this process (each command gets its own) */
    public static int nextOpaque() {
        return OPAQUE.getAndIncrement();
    }

    /** @return the request code of a request, the response code of a response */
    public int code() {
        return code;
    }

    /** @param code a request or response code @return this */
    public RemotingCommand setCode(int code) {
        this.code = code;
        return this;
    }

    /** @return the sender's language */
    public LanguageCode language() {
        return language;
    }

    /** @param language the sender's language @return this */
    public RemotingCommand setLanguage(LanguageCode language) {
        this.language = Objects.requireNonNull(language, "language");
        return this;
    }

    /** @return the sender's RocketMQ version ordinal (479 = 5.3.3) */
    public int version() {
        return version;
    }

    /** @param version a RocketMQ version ordinal @return this */
    public RemotingCommand setVersion(int version) {
        this.version = version;
        return this;
    }

    /** @return the request id; a response carries its request's */
    public int opaque() {
        return opaque;
    }

    /** @param opaque the request id @return this */
    public RemotingCommand setOpaque(int opaque) {
        this.opaque = opaque;
        return this;
    }

    /** @return the flag bits ({@link #FLAG_RESPONSE}, {@link #FLAG_ONEWAY}) */
    public int flag() {
        return flag;
    }

    /** @param flag the flag bits @return this */
    public RemotingCommand setFlag(int flag) {
        this.flag = flag;
        return this;
    }

    /** @return whether flag bit 0 (response) is set */
    public boolean isResponse() {
        return (flag & FLAG_RESPONSE) != 0;
    }

    /** @return whether flag bit 1 (one-way) is set */
    public boolean isOneway() {
        return (flag & FLAG_ONEWAY) != 0;
    }

    /**
     * Sets flag bit 1; the remoting layer also does this for {@code sendOneway}.
     *
     * @return this
     */
    public RemotingCommand markOneway() {
        flag |= FLAG_ONEWAY;
        return this;
    }

    /** Sets flag bit 0 (response). @return this */
    public RemotingCommand markResponse() {
        flag |= FLAG_RESPONSE;
        return this;
    }

    /** @return the remark, or null */
    public String remark() {
        return remark;
    }

    /** @param remark human-readable text or null @return this */
    public RemotingCommand setRemark(String remark) {
        this.remark = remark;
        return this;
    }

    /** @return an unmodifiable live view of the header fields, in insertion order */
    public Map<String, String> extFields() {
        return Collections.unmodifiableMap(extFields);
    }

    /**
     * @param name a header field name
     * @return its value, or null when absent
     */
    public String extField(String name) {
        return extFields.get(name);
    }

    /**
     * Sets a header field; numbers and booleans are written in decimal / {@code true|false}, enums
     * by name. A null value removes the field (RocketMQ omits null fields).
     *
     * @param name the field name
     * @param value the value or null
     * @return this
     */
    public RemotingCommand putExtField(String name, Object value) {
        Objects.requireNonNull(name, "name");
        if (value == null) {
            extFields.remove(name);
        } else {
            extFields.put(name, value instanceof Enum<?> e ? e.name() : value.toString());
        }
        return this;
    }

    /** @return typed, validated access to the header fields */
    public HeaderFields headers() {
        return new HeaderFields(extFields);
    }

    /** @return the body bytes (empty, never null); for a ByteBuf body, empty as well */
    public byte[] body() {
        return body;
    }

    /**
     * @param body the body bytes (not copied; null means empty)
     * @return this
     */
    public RemotingCommand withBody(byte[] body) {
        releaseBody();
        this.body = body == null ? new byte[0] : body;
        return this;
    }

    /**
     * Sets a buffer body for zero-copy sending. Ownership of {@code body} passes to this command
     * (see the class comment); any previous buffer body is released.
     *
     * @param body the body; its readable bytes are sent
     * @return this
     */
    public RemotingCommand withBody(ByteBuf body) {
        Objects.requireNonNull(body, "body");
        releaseBody();
        this.body = new byte[0];
        this.bodyBuf = body;
        return this;
    }

    /** @return the outgoing buffer body still owned by this command, or null (not transferred) */
    public ByteBuf bodyBuf() {
        return bodyBuf;
    }

    /**
     * Transfers the outgoing buffer body to the caller, who must release it (the encoder does).
     *
     * @return the buffer or null when there is none
     */
    public ByteBuf detachBodyBuf() {
        ByteBuf detached = bodyBuf;
        bodyBuf = null;
        return detached;
    }

    /** @return the body length in bytes, whichever form it has */
    public int bodyLength() {
        return bodyBuf != null ? bodyBuf.readableBytes() : body.length;
    }

    /** Releases the buffer body if this command still owns one. Idempotent. */
    public void releaseBody() {
        ByteBuf detached = detachBodyBuf();
        if (detached != null) {
            detached.release();
        }
    }

    /** @return the header type this command arrived in, or is to be sent in */
    public SerializeType serializeType() {
        return serializeType;
    }

    /** @param serializeType the header type to send in @return this */
    public RemotingCommand setSerializeType(SerializeType serializeType) {
        this.serializeType = Objects.requireNonNull(serializeType, "serializeType");
        return this;
    }

    @Override
    public String toString() {
        return "RemotingCommand[code=" + code + ", language=" + language + ", version=" + version
                + ", opaque=" + opaque + ", flag=" + flag + ", remark=" + remark + ", extFields="
                + extFields + ", bodyLength=" + bodyLength() + ", serializeType=" + serializeType + "]";
    }
}
