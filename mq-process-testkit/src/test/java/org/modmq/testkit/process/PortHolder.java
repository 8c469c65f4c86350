package org.modmq.testkit.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child program of {@link ChildProcessTest}: {@code PortHolder <port>} writes the variable
 * {@value #PROBE_VARIABLE} to {@value #PROBE_FILE} in its working directory, then accepts (and drops)
 * connections on 127.0.0.1:port until it is stopped; {@code PortHolder fail} throws at once.
 */
final class PortHolder {

    static final String PROBE_VARIABLE = "PROCESS_TESTKIT_PROBE";
    static final String PROBE_FILE = "probe.txt";

    private PortHolder() {
    }

    public static void main(String[] args) throws IOException {
        if (args[0].equals("fail")) {
            throw new IllegalStateException("deliberate start-up failure");
        }
        String probe = System.getenv(PROBE_VARIABLE);
        Files.writeString(Path.of(PROBE_FILE), probe == null ? "(unset)" : probe, StandardCharsets.UTF_8);
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])));
            while (true) {
                server.accept().close();
            }
        }
    }
}
