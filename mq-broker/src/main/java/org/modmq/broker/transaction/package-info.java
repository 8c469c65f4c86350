/**
 * RocketMQ's transactional messages: prepared sends stored as half messages, END_TRANSACTION, and the
 * check-back that asks producers about half messages left open, running only on a master. Entry point:
 * {@link org.modmq.broker.transaction.Transactions}, wired by the store binding; the send path calls its
 * hook. The state is what RocketMQ stores (half and op topics, the {@code CID_RMQ_SYS_TRANS} offsets),
 * so a new master rebuilds it from its replicated store.
 */
package org.modmq.broker.transaction;
