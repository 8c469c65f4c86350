/**
 * The controller's request handling: who may answer (the serving leader), what each request decides,
 * the ordering of writes, the watch over inactive masters and the push of role changes.
 */
package org.modmq.controller.core;
