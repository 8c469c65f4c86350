/** The controller's event log on Apache Ratis; the only package that sees Ratis types. */
package org.modmq.controller.raft;
