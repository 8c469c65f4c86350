/**
 * Node-local broker liveness: heartbeats, connection closes and the lease rule that says when the
 * leader may elect a new master.
 */
package org.modmq.controller.liveness;
