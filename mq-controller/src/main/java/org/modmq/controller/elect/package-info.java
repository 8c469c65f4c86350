/** The election policy: which live replica becomes master. */
package org.modmq.controller.elect;
