/**
 * JSON bodies that more than one server reads or writes: a broker's topic table and its registration
 * with the name server. This package is their only home; an ArchUnit rule keeps copies out of the
 * other modules. Encode and decode them with {@link org.modmq.remoting.protocol.Json}.
 */
package org.modmq.remoting.protocol.body;
