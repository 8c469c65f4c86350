/**
 * The replicated controller state and the events that change it. Pure values: no threads, no I/O,
 * no Ratis.
 */
package org.modmq.controller.state;
