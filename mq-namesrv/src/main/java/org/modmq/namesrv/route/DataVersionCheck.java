package org.modmq.namesrv.route;

import org.modmq.remoting.protocol.body.DataVersion;


/**
 * Answer to {@code QUERY_DATA_VERSION}.
 *
 * @param changed whether the broker's version differs from the stored one (or none is stored)
 * @param stored  the stored version, or null when the broker is not live
 */
public record DataVersionCheck(boolean changed, DataVersion stored) {
}
