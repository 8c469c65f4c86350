package org.modmq.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.modmq.broker.BrokerClient.props;
import static org.modmq.broker.BrokerClient.pull;
import static org.modmq.broker.BrokerClient.sendV2;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.modmq.broker.data.MessageStoreBinding;
import org.modmq.broker.data.PullMessageProcessor;
import org.modmq.broker.runtime.PluginSelection;
import org.modmq.broker.testing.Await;
import org.modmq.broker.testing.TestConfigs;
import org.modmq.namesrv.NamesrvConfig;
import org.modmq.namesrv.NamesrvServer;
import org.modmq.remoting.netty.RemotingClient;
import org.modmq.remoting.netty.RemotingClientConfig;
import org.modmq.remoting.protocol.Json;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.RequestCode;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.store.faulty.control.Fault;
import org.modmq.store.faulty.control.FaultControl;
import org.modmq.store.faulty.control.FaultyStorage;
import org.modmq.store.faulty.control.Operation;

/**
 * A broker on the faulty backend (SYNC_FLUSH) with a real name server: the send answers RocketMQ gives
 * for store errors, nothing half-written pulled, and a registration without write permission while
 * the store is unwritable, with write back once the fault clears.
 */
@Tag("integration")
@Timeout(60)
class StorageFaultsBrokerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Predicate<Path> COMMIT_LOG = file -> file.getParent().getFileName().toString().equals("commitlog");

    @TempDir
    Path dir;

    private NamesrvServer namesrv;
    private BrokerServer broker;
    private RemotingClient remoting;
    private BrokerClient client;
    private FaultControl control;

    private void start() {
        namesrv = new NamesrvServer(NamesrvConfig.defaults().withListenPort(0)).start();
        control = FaultyStorage.control(dir);
        broker = new BrokerServer(TestConfigs.broker(dir, "namesrvAddr", namesrv.address(), "storeBackend",
                FaultyStorage.NAME, "flushDiskType", "SYNC_FLUSH", "storeFaultProbeInterval", "20",
                "mappedFileSizeCommitLog", "1048576", "mappedFileSizeConsumeQueue", "20000"), Clock.systemUTC(),
                runtime -> MessageStoreBinding.open(runtime, PluginSelection.discover())).start();
        remoting = new RemotingClient(RemotingClientConfig.defaults());
        client = new BrokerClient(remoting, broker.brokerAddr());
    }

    @AfterEach
    void stop() {
        if (control != null) {
            control.clearAll();
        }
        if (remoting != null) {
            remoting.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (namesrv != null) {
            namesrv.close();
        }
        FaultyStorage.forget(dir);
    }

    private RemotingCommand send(String body) {
        return client.invoke(sendV2("FaultTopic", 0, props("UNIQ_KEY", "ID-" + body, "WAIT", "true"),
                body.getBytes(StandardCharsets.UTF_8)));
    }

    /** The perm the name server's route gives FaultTopic's queues, or -1 while it has no route. */
    private int routePerm() {
        RemotingCommand route = remoting.invoke(namesrv.address(), RemotingCommand
                .request(RequestCode.GET_ROUTEINFO_BY_TOPIC).putExtField("topic", "FaultTopic"), WAIT).join();
        if (route.code() != ResponseCode.SUCCESS) {
            return -1;
        }
        try {
            JsonNode queues = Json.mapper().readTree(route.body()).path("queueDatas");
            return queues.size() == 0 ? -1 : queues.get(0).path("perm").asInt();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private List<String> pulledBodies() {
        RemotingCommand pulled = client.invoke(pull("g1", "FaultTopic", 0, 0,
                PullMessageProcessor.FLAG_SUBSCRIPTION, 0, 0, "*"));
        assertThat(pulled.code()).isEqualTo(ResponseCode.SUCCESS);
        return BrokerClient.decode(pulled.body()).stream().map(BrokerClient.Record::body).toList();
    }

    @Test
    void diskFullOnWriteAnswersStoreErrorsAndUnregistersWritePermissionUntilItClears() {
        start();
        assertThat(send("first").code()).isEqualTo(ResponseCode.SUCCESS);
        Await.until("FaultTopic routed read-write", WAIT, () -> routePerm() == 6);

        control.fail(Operation.WRITE, Fault.ENOSPC, COMMIT_LOG);
        RemotingCommand failed = send("torn");
        assertThat(failed.code()).as("the send that hit the error: RocketMQ's UNKNOWN_ERROR").isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(failed.remark()).contains(Fault.ENOSPC.message());
        RemotingCommand refused = send("refused");
        assertThat(refused.code()).as("while not writable").isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
        assertThat(refused.remark()).contains("not writable");
        Await.until("the registration to drop write permission", WAIT, () -> routePerm() == 4);
        assertThat(pulledBodies()).containsExactly("first");

        control.clear(Operation.WRITE);
        Await.until("write permission registered again", WAIT, () -> routePerm() == 6);
        assertThat(send("second").code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pulledBodies()).containsExactly("first", "second");
    }

    @Test
    void failedForceAnswersFlushDiskTimeoutNeverSuccess() {
        start();
        assertThat(send("first").code()).isEqualTo(ResponseCode.SUCCESS);
        control.fail(Operation.FORCE, Fault.EIO, COMMIT_LOG);
        RemotingCommand unforced = send("unforced");
        assertThat(unforced.code()).isEqualTo(ResponseCode.FLUSH_DISK_TIMEOUT);
        assertThat(unforced.extField("msgId")).as("stored, not durable").isNotBlank();
        assertThat(send("refused").code()).isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
        control.clear(Operation.FORCE);
        Await.until("the store to be writable again", WAIT, () -> send("probe").code() == ResponseCode.SUCCESS);
    }

    @Test
    void failedReadAnswersThePullWithSystemError() {
        start();
        assertThat(send("first").code()).isEqualTo(ResponseCode.SUCCESS);
        control.fail(Operation.READ, Fault.EIO, COMMIT_LOG);
        RemotingCommand pulled = client.invoke(pull("g1", "FaultTopic", 0, 0, PullMessageProcessor.FLAG_SUBSCRIPTION,
                0, 0, "*"));
        assertThat(pulled.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        control.clear(Operation.READ);
        assertThat(pulledBodies()).containsExactly("first");
    }
}
