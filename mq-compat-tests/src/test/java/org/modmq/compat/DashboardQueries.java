package org.modmq.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a Grafana dashboard's PromQL queries read: every panel's (and nested row's) targets'
 * {@code expr} and the templating variables' queries. A name is an identifier that is not a function
 * (followed by {@code (}), a keyword or a label name: string literals, label matchers {@code {...}},
 * range selectors {@code [...]} and {@code by}/{@code without}/{@code on}/{@code ignoring} lists are
 * removed first. Stateless.
 */
final class DashboardQueries {

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "offset", "bool", "and", "or", "unless", "inf", "nan");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)"
            + "\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?");
    /** Grafana's {@code label_values(metric, label)}: only the first argument is a metric name. */
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");

    private DashboardQueries() {
    }

    /** Every query of the dashboard at {@code file}, panels' first, then the templating variables'. */
    static List<String> queries(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        List<String> queries = new ArrayList<>();
        collectPanels(root.path("panels"), queries);
        for (JsonNode variable : root.path("templating").path("list")) {
            JsonNode query = variable.path("query");
            String text = query.isObject() ? query.path("query").asText("") : query.asText("");
            if ("query".equals(variable.path("type").asText()) && !text.isBlank()) {
                queries.add(text);
            }
        }
        return queries;
    }

    private static void collectPanels(JsonNode panels, List<String> out) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText("");
                if (!expr.isBlank()) {
                    out.add(expr);
                }
            }
            collectPanels(panel.path("panels"), out);
        }
    }

    /** The metric names {@code query} reads (a Grafana variable's {@code label_values(...)} included). */
    static Set<String> metricNames(String query) {
        Set<String> names = new TreeSet<>();
        Matcher labelValues = LABEL_VALUES.matcher(query);
        if (labelValues.find()) {
            names.add(labelValues.group(1));
            return names;
        }
        String stripped = STRING.matcher(query).replaceAll(" ");
        stripped = MATCHERS.matcher(stripped).replaceAll(" ");
        stripped = RANGE.matcher(stripped).replaceAll(" ");
        stripped = GROUPING.matcher(stripped).replaceAll(" ");
        Matcher identifier = IDENTIFIER.matcher(stripped);
        while (identifier.find()) {
            String token = identifier.group();
            int start = identifier.start();
            boolean partOfNumber = start > 0 && (Character.isDigit(stripped.charAt(start - 1))
                    || stripped.charAt(start - 1) == '.');
            if (token.endsWith("(") || partOfNumber || KEYWORDS.contains(token.toLowerCase())
                    || token.startsWith("$")) {
                continue;
            }
            names.add(token);
        }
        return names;
    }
}
