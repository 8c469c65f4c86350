/**
 * JSON bodies of the controller protocol, shaped as RocketMQ 5.3.3's fastjson bodies (property names and
 * nesting); written and read with {@link org.modmq.remoting.protocol.Json}.
 */
package org.modmq.controller.body;
