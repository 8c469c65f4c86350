package org.modmq.acl;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of ACL 1.0, as {@code AclClientRPCHook} computes it:
 *
 * <pre>
 * content   = value(k1) + value(k2) + ... + body      header fields sorted by name (Java String order),
 *                                                     "Signature" left out, values as UTF-8, no separators
 * Signature = Base64( HmacSHA1(key = secretKey as UTF-8, content) )
 * </pre>
 *
 * Stateless and thread-safe.
 */
public final class RequestSignature {

    /** Header field of the access key. */
    public static final String ACCESS_KEY = "AccessKey";
    /** Header field of the signature. */
    public static final String SIGNATURE = "Signature";
    /** Header field of the optional security token (signed like any other field). */
    public static final String SECURITY_TOKEN = "SecurityToken";
    /** Query-by-unique-key flag, which clients up to 4.9.3 sent after signing. */
    public static final String UNIQUE_KEY_QUERY = "_UNIQUE_KEY_QUERY";
    /** Version ordinal of RocketMQ 4.9.3; clients up to it do not sign {@link #UNIQUE_KEY_QUERY}. */
    public static final int V4_9_3 = 399;

    private static final String ALGORITHM = "HmacSHA1";

    private RequestSignature() {
    }

    /**
     * @param extFields the header fields (any order; {@code Signature} is skipped)
     * @param body the body, may be empty
     * @param secretKey the signer's secret
     * @return the Base64 signature
     */
    public static String sign(Map<String, String> extFields, byte[] body, String secretKey) {
        return sign(content(extFields, body, false), secretKey);
    }

    /**
     * @param content what is signed (see {@link #content})
     * @param secretKey the signer's secret
     * @return the Base64 signature
     */
    public static String sign(byte[] content, String secretKey) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return Base64.getEncoder().encodeToString(mac.doFinal(content));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // HmacSHA1 is a mandatory JDK algorithm; an empty key is the only realistic failure.
            throw new IllegalStateException("cannot compute " + ALGORITHM + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param extFields the header fields
     * @param body the body, may be empty
     * @param skipUniqueKeyQuery leave {@link #UNIQUE_KEY_QUERY} out (clients up to 4.9.3)
     * @return the signed bytes
     */
    public static byte[] content(Map<String, String> extFields, byte[] body, boolean skipUniqueKeyQuery) {
        StringBuilder values = new StringBuilder();
        for (Map.Entry<String, String> field : new TreeMap<>(extFields).entrySet()) {
            String name = field.getKey();
            if (name.equals(SIGNATURE) || (skipUniqueKeyQuery && name.equals(UNIQUE_KEY_QUERY))) {
                continue;
            }
            values.append(field.getValue());
        }
        ByteArrayOutputStream content = new ByteArrayOutputStream(values.length() + body.length);
        content.writeBytes(values.toString().getBytes(StandardCharsets.UTF_8));
        content.writeBytes(body);
        return content.toByteArray();
    }

    /**
     * Compares in time independent of where the texts differ.
     *
     * @return whether {@code received} equals {@code expected}; false for null
     */
    public static boolean matches(String expected, String received) {
        return received != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                received.getBytes(StandardCharsets.UTF_8));
    }
}
