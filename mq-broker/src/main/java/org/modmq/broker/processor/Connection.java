package org.modmq.broker.processor;

/** One client connection in ConsumerConnection / ProducerConnection bodies. Immutable. */
public record Connection(String clientAddr, String clientId, String language, int version) {
}
