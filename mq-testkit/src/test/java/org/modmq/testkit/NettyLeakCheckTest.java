package org.modmq.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The check must bite, or a green run means nothing. The leaking case below makes Netty log one
 * {@code LEAK:} error: that line in the build output is expected.
 */
@ExtendWith(NettyLeakCheck.class)
@Timeout(60)
class NettyLeakCheckTest {

    @Test
    void watchesTheBufferDetector() {
        assertThat(NettyLeakCheck.watches(ByteBuf.class.getName())).as("ByteBuf detector recorded").isTrue();
    }

    @Test
    void failsTheTestThatLeaksAndPassesTheCleanOne() {
        assertThat(ResourceLeakDetector.getLevel()).as("surefire's leak detection level")
                .isEqualTo(ResourceLeakDetector.Level.PARANOID);

        Map<String, TestExecutionResult> results = run(LeakingCase.class, CleanCase.class);

        assertThat(results).containsOnlyKeys("leaksABuffer()", "releasesItsBuffer()",
                "NettyLeakCheckTest$LeakingCase", "NettyLeakCheckTest$CleanCase");
        TestExecutionResult leaking = results.get("leaksABuffer()");
        assertThat(leaking.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(leaking.getThrowable()).get().asInstanceOf(InstanceOfAssertFactories.THROWABLE)
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("1 Netty LEAK report(s)")
                .hasMessageContaining("LEAK of ByteBuf")
                .hasMessageContaining("leaksABuffer");
        assertThat(results.get("releasesItsBuffer()").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(results.get("NettyLeakCheckTest$LeakingCase").getStatus()).as("leak consumed by the failing test")
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(results.get("NettyLeakCheckTest$CleanCase").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void installIsIdempotent() {
        NettyLeakCheck.install();
        NettyLeakCheck.install();
        NettyLeakCheck.check();
        assertThat(NettyLeakCheck.watches(ByteBuf.class.getName())).isTrue();
    }

    /** Runs the given classes in a nested launcher; returns each test's and class's result by display name. */
    private static Map<String, TestExecutionResult> run(Class<?>... classes) {
        Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (Class<?> testClass : classes) {
            request.selectors(selectClass(testClass));
        }
        LauncherFactory.create().execute(request.build(), new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.getSource().isPresent()) {
                    results.put(id.getDisplayName(), result);
                }
            }
        });
        return results;
    }

    /** Run only through {@link #run}: drops a buffer without releasing it. */
    @ExtendWith(NettyLeakCheck.class)
    static class LeakingCase {

        @Test
        void leaksABuffer() {
            ByteBuf leaked = ByteBufAllocator.DEFAULT.directBuffer(64);
            leaked.writeLong(42);
        }
    }

    /** Run only through {@link #run}: releases what it allocates. */
    @ExtendWith(NettyLeakCheck.class)
    static class CleanCase {

        @Test
        void releasesItsBuffer() {
            ByteBuf buffer = ByteBufAllocator.DEFAULT.directBuffer(64);
            try {
                buffer.writeLong(42);
            } finally {
                buffer.release();
            }
        }
    }
}
