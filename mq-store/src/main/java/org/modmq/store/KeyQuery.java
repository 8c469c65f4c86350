package org.modmq.store;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.modmq.store.format.MessageDecoder;
import org.modmq.store.format.RecordSummary;
import org.modmq.store.index.IndexStore;
import org.modmq.store.log.CommitLog;

/**
 * Query by key: the index names CommitLog offsets, the records there are checked to hold the key (after a
 * replica's truncation the index may still name offsets that now hold other records). Thread-safe (reads
 * only).
 */
final class KeyQuery {

    private final CommitLog log;
    private final IndexStore index;

    KeyQuery(CommitLog log, IndexStore index) {
        this.log = Objects.requireNonNull(log, "log");
        this.index = Objects.requireNonNull(index, "index");
    }

    /** See {@link MessageStore#queryMessage}. */
    QueryMessageResult query(String topic, String key, int maxNum, long begin, long end) {
        List<ByteBuf> records = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (long offset : index.query(topic, key, maxNum, begin, end)) {
            ByteBuf record = offset < log.minOffset() ? null : log.readRecord(offset);
            if (record == null) {
                continue;
            }
            if (holdsKey(record, topic, key)) {
                records.add(record);
                offsets.add(offset);
            } else {
                record.release();
            }
        }
        return new QueryMessageResult(records, offsets, index.lastUpdateTimestamp(), log.maxOffset());
    }

    private static boolean holdsKey(ByteBuf record, String topic, String key) {
        try {
            RecordSummary summary = MessageDecoder.summarize(record, record.readerIndex());
            if (!topic.equals(summary.topic())) {
                return false;
            }
            if (key.equals(summary.uniqKey())) {
                return true;
            }
            return summary.keys() != null && Arrays.asList(summary.keys().split(" ")).contains(key);
        } catch (RuntimeException e) {
            return false;
        }
    }
}
