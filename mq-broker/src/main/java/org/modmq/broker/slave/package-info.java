/**
 * The slave side of master/slave metadata: {@code SlaveMetadataSyncAgent} copies the master's topics,
 * consumer and delay offsets and subscription groups over the master's main port.
 */
package org.modmq.broker.slave;
