package org.modmq.compat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scrape of a {@code /metrics} endpoint in Prometheus' text format, read into samples (name, labels,
 * value). Only what the tests need of the format: one sample per line, {@code #} lines skipped, label
 * values without escaped quotes. Immutable.
 */
final class PromScrape {

    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String text;
    private final List<Sample> samples;

    private PromScrape(String text, List<Sample> samples) {
        this.text = text;
        this.samples = samples;
    }

    /** GETs {@code http://127.0.0.1:port/metrics}; fails the test on any status but 200. */
    static PromScrape of(int port) throws IOException, InterruptedException {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET /metrics on port " + port + " answered " + response.statusCode());
        }
        return parse(response.body());
    }

    /** Scrapes, or returns null when the endpoint does not answer (yet). */
    static PromScrape orNull(int port) {
        try {
            return of(port);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static PromScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name;
            Map<String, String> labels = new LinkedHashMap<>();
            if (brace >= 0 && brace < space) {
                name = line.substring(0, brace);
                String inside = line.substring(brace + 1, line.lastIndexOf('}'));
                for (String pair : inside.split("\",")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        labels.put(pair.substring(0, eq), pair.substring(eq + 2).replaceAll("\"$", ""));
                    }
                }
            } else {
                name = line.substring(0, space);
            }
            samples.add(new Sample(name, labels, Double.parseDouble(line.substring(space + 1))));
        }
        return new PromScrape(text, List.copyOf(samples));
    }

    String text() {
        return text;
    }

    /** Every sample of the scrape. */
    List<Sample> samples() {
        return samples;
    }

    /** Samples of {@code name} whose labels include every pair of {@code match}. */
    List<Sample> samples(String name, Map<String, String> match) {
        return samples.stream().filter(s -> s.name().equals(name))
                .filter(s -> match.entrySet().stream().allMatch(e -> Objects.equals(s.labels().get(e.getKey()),
                        e.getValue())))
                .toList();
    }

    /** The sum of the matching samples' values; 0 when none matches. */
    double sum(String name, Map<String, String> match) {
        return samples(name, match).stream().mapToDouble(Sample::value).sum();
    }

    /** Whether some sample of {@code name} matches. */
    boolean has(String name, Map<String, String> match) {
        return !samples(name, match).isEmpty();
    }
}
