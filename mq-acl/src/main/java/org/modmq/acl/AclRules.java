package org.modmq.acl;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rules of one {@code plain_acl.yml}: addresses let through without any check, and the accounts
 * by access key. Immutable and thread-safe; a reload replaces the whole value.
 *
 * @param globalWhiteRemoteAddresses clients at these addresses are let through unchecked
 * @param accounts accounts by access key
 */
public record AclRules(List<AddressPattern> globalWhiteRemoteAddresses, Map<String, AclAccount> accounts) {

    public AclRules {
        globalWhiteRemoteAddresses = List.copyOf(globalWhiteRemoteAddresses);
        accounts = Map.copyOf(accounts);
    }

    /** @return the account of {@code accessKey}, if any */
    public Optional<AclAccount> account(String accessKey) {
        return accessKey == null ? Optional.empty() : Optional.ofNullable(accounts.get(accessKey));
    }

    /** @return whether a global white-list pattern covers {@code address} */
    public boolean globallyWhite(String address) {
        for (AddressPattern pattern : globalWhiteRemoteAddresses) {
            if (pattern.matches(address)) {
                return true;
            }
        }
        return false;
    }
}
