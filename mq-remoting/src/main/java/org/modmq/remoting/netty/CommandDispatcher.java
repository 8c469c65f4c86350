package org.modmq.remoting.netty;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.modmq.remoting.protocol.RemotingCommand;
import org.modmq.remoting.protocol.ResponseCode;
import org.modmq.remoting.protocol.ResponseCodeException;
import org.modmq.remoting.protocol.SerializeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes received requests to processors on their executors and writes the answers, including the
 * generic error answers (docs/protocol.md section 1.9). {@link #dispatch} runs on an I/O thread and never blocks it.
 * Counts requests in flight so that a server can drain them on close. Thread-safe.
 */
final class CommandDispatcher {

    static final String OVERLOAD_REMARK = "[OVERLOAD]system busy, start flow control for a while";

    private static final Logger LOG = LoggerFactory.getLogger(CommandDispatcher.class);

    private record Registration(RequestProcessor processor, ExecutorService executor) {
    }

    private final Map<Integer, Registration> table = new ConcurrentHashMap<>();
    private volatile Registration fallback;
    private volatile RequestCheck check = RequestCheck.NONE;
    private volatile RpcObserver observer = RpcObserver.NONE;
    private final Object idleLock = new Object();
    private int inFlight;

    void register(int code, RequestProcessor processor, ExecutorService executor) {
        table.put(code, new Registration(Objects.requireNonNull(processor, "processor"),
                Objects.requireNonNull(executor, "executor")));
    }

    void registerDefault(RequestProcessor processor, ExecutorService executor) {
        fallback = new Registration(Objects.requireNonNull(processor, "processor"),
                Objects.requireNonNull(executor, "executor"));
    }

    void requestCheck(RequestCheck check) {
        this.check = Objects.requireNonNull(check, "check");
    }

    void rpcObserver(RpcObserver observer) {
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    void dispatch(NettyRemotingChannel channel, RemotingCommand request) {
        long started = System.nanoTime();
        Registration registration = table.getOrDefault(request.code(), fallback);
        if (registration == null) {
            answer(channel, request, RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    " request type " + request.code() + " not supported"), started, false);
            return;
        }
        enter();
        try {
            registration.executor().execute(() -> run(registration.processor(), channel, request, started));
        } catch (RejectedExecutionException e) {
            leave();
            LOG.debug("processor executor full, answering SYSTEM_BUSY to {} for code {}", channel.remoteAddressText(),
                    request.code());
            answer(channel, request, RemotingCommand.responseTo(request, ResponseCode.SYSTEM_BUSY, OVERLOAD_REMARK),
                    started, false);
        }
    }

    private void run(RequestProcessor processor, NettyRemotingChannel channel, RemotingCommand request,
                     long started) {
        CompletableFuture<RemotingCommand> future;
        try {
            check.check(channel, request);
            future = processor.process(channel, request);
        } catch (RuntimeException e) {
            future = CompletableFuture.failedFuture(e);
        }
        if (future == null) {
            leave();
            return;
        }
        boolean held = !future.isDone();
        future.whenComplete((response, error) -> {
            try {
                if (error != null) {
                    answer(channel, request, errorResponse(request, channel, error), started, held);
                } else if (response != null) {
                    answer(channel, request, response, started, held);
                }
            } finally {
                leave();
            }
        });
    }

    private static RemotingCommand errorResponse(RemotingCommand request, NettyRemotingChannel channel, Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ResponseCodeException refused) {
            LOG.debug("code {} from {} refused: {} {}", request.code(), channel.remoteAddressText(),
                    ResponseCode.name(refused.responseCode()), refused.remark());
            return RemotingCommand.responseTo(request, refused.responseCode(), refused.remark());
        }
        LOG.warn("processor for code {} from {} failed", request.code(), channel.remoteAddressText(), cause);
        String description = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR, description);
    }

    /**
     * Writes {@code response} as the answer to {@code request}, or drops it for one-way requests, and
     * tells the observer once the write has ended.
     */
    private void answer(NettyRemotingChannel channel, RemotingCommand request, RemotingCommand response,
                        long started, boolean held) {
        RpcObserver told = observer;
        int responseCode = response.code();
        if (request.isOneway()) {
            response.releaseBody();
            observe(told, request.code(), responseCode, RpcObserver.Result.ONEWAY, held, started);
            return;
        }
        response.setOpaque(request.opaque()).markResponse();
        boolean fitsBinary = response.code() >= Short.MIN_VALUE && response.code() <= Short.MAX_VALUE;
        response.setSerializeType(fitsBinary ? request.serializeType() : SerializeType.JSON);
        channel.channel().writeAndFlush(response).addListener(written -> {
            observe(told, request.code(), responseCode, written.isCancelled() ? RpcObserver.Result.CANCELLED
                    : written.isSuccess() ? RpcObserver.Result.SUCCESS : RpcObserver.Result.WRITE_CHANNEL_FAILED,
                    held, started);
            if (!written.isSuccess()) {
                response.releaseBody();
                LOG.debug("cannot answer opaque {} to {}: {}", request.opaque(), channel.remoteAddressText(),
                        String.valueOf(written.cause()));
            }
        });
    }

    private static void observe(RpcObserver observer, int requestCode, int responseCode, RpcObserver.Result result,
                                boolean held, long started) {
        try {
            observer.answered(requestCode, responseCode, result, held, System.nanoTime() - started);
        } catch (RuntimeException e) {
            LOG.warn("request observer failed for code {}", requestCode, e);
        }
    }

    private void enter() {
        synchronized (idleLock) {
            inFlight++;
        }
    }

    private void leave() {
        synchronized (idleLock) {
            inFlight--;
            if (inFlight == 0) {
                idleLock.notifyAll();
            }
        }
    }

    int inFlight() {
        synchronized (idleLock) {
            return inFlight;
        }
    }

    /**
     * Waits until no request is in flight or the grace has passed.
     *
     * @return whether everything finished; false also when interrupted (the flag is restored)
     */
    boolean awaitIdle(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (idleLock) {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(idleLock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }
}
