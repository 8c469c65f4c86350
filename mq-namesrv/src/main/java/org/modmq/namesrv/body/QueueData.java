package org.modmq.namesrv.body;

import org.modmq.remoting.protocol.body.Perm;

/**
 * The queues one broker set holds for a topic.
 *
 * @param brokerName     the broker set
 * @param perm           permission bits (see {@link Perm})
 * @param readQueueNums  readable queues
 * @param topicSysFlag   unit flags (1 = unit topic, 2 = has unit subscribers)
 * @param writeQueueNums writable queues
 */
public record QueueData(String brokerName, int perm, int readQueueNums, int topicSysFlag, int writeQueueNums) {

    /** A copy with other permission bits. */
    public QueueData withPerm(int newPerm) {
        return new QueueData(brokerName, newPerm, readQueueNums, topicSysFlag, writeQueueNums);
    }
}
