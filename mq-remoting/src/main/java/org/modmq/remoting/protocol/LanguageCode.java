package org.modmq.remoting.protocol;

/**
 * The sender's language as carried in every command ({@code language}). The wire value is the
 * ordinal-like {@link #code()}; JSON headers carry the constant name.
 */
public enum LanguageCode {
    JAVA(0), CPP(1), DOTNET(2), PYTHON(3), DELPHI(4), ERLANG(5), RUBY(6), OTHER(7), HTTP(8), GO(9),
    PHP(10), OMS(11), RUST(12), NODE_JS(13);

    private static final LanguageCode[] BY_CODE = values();

    private final byte code;

    LanguageCode(int code) {
        this.code = (byte) code;
    }

    /** @return the one-byte code used by the ROCKETMQ binary header */
    public byte code() {
        return code;
    }

    /**
     * @param code a wire code
     * @return the language with that code, or {@link #OTHER} for an unknown code (we never reject a
     *     frame for its language)
     */
    public static LanguageCode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : OTHER;
    }

    /**
     * @param name a constant name as found in a JSON header, or a decimal code
     * @return the language, or {@link #OTHER} for an unknown or null value
     */
    public static LanguageCode fromName(String name) {
        if (name == null || name.isEmpty()) {
            return OTHER;
        }
        if (Character.isDigit(name.charAt(0))) {
            try {
                return fromCode(Integer.parseInt(name));
            } catch (NumberFormatException e) {
                return OTHER;
            }
        }
        for (LanguageCode language : BY_CODE) {
            if (language.name().equals(name)) {
                return language;
            }
        }
        return OTHER;
    }
}
