import org.modmq.api.spi.storage.StorageBackendProvider;
import org.modmq.examples.filechannel.FileChannelStorageProvider;

/**
 * An example third-party storage plugin: segment files read and written through {@code FileChannel}
 * positional I/O, without memory mapping. It depends on nothing of modmq but {@code mq-api}.
 */
module org.modmq.examples.filechannel {
    requires org.modmq.api;
    requires io.netty.buffer;

    provides StorageBackendProvider with FileChannelStorageProvider;
}
