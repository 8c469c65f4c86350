package org.modmq.acl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reload agent stepped by hand over a real file. */
class AclFileWatchAgentTest {

    @TempDir
    Path dir;

    private static final String ONE = """
            accounts:
              - accessKey: appUser1
                secretKey: appSecret1
                defaultTopicPerm: PUB
            """;

    @Test
    void putsAChangedFileInForceAndIgnoresAnUnchangedOne() throws IOException {
        Path file = write(ONE);
        AclService service = AclService.load(file);
        AclFileWatchAgent agent = service.reloadAgent();
        assertThat(agent.doWork()).isZero();
        assertThat(service.validator().rules().account("appUser2")).isEmpty();

        write(ONE + "  - accessKey: appUser2\n    secretKey: appSecret2\n");
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.CURRENT);
        assertThat(service.validator().rules().account("appUser2")).isPresent();
        assertThat(agent.doWork()).isZero();
    }

    @Test
    void aFileThatDoesNotParseKeepsTheOldRulesUntilItIsFixed() throws IOException {
        Path file = write(ONE);
        AclService service = AclService.load(file);
        AclFileWatchAgent agent = service.reloadAgent();
        AclRules before = service.validator().rules();

        write(ONE.replace("PUB", "WRITE"));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.REJECTED);
        assertThat(service.validator().rules()).isSameAs(before);
        assertThat(agent.doWork()).as("the same broken content is not read again").isZero();

        write(ONE.replace("PUB", "SUB"));
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.CURRENT);
        assertThat(service.validator().rules().account("appUser1").orElseThrow().defaultTopicPerm())
                .isEqualTo(AclPermission.SUB);
    }

    @Test
    void aMissingFileKeepsTheOldRulesAndItsReturnIsRead() throws IOException {
        Path file = write(ONE);
        AclService service = AclService.load(file);
        AclFileWatchAgent agent = service.reloadAgent();
        AclRules before = service.validator().rules();

        Files.delete(file);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.REJECTED);
        assertThat(agent.doWork()).isZero();
        assertThat(service.validator().rules()).isSameAs(before);

        write(ONE);
        assertThat(agent.doWork()).isEqualTo(1);
        assertThat(agent.state()).isEqualTo(AclFileWatchAgent.State.CURRENT);
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("plain_acl.yml"), content);
    }
}
