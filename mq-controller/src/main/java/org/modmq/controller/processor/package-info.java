/** The controller's remoting processors: request decoding and response encoding. */
package org.modmq.controller.processor;
