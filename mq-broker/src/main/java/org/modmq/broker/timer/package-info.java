/**
 * Timer messages (RocketMQ 5.x {@code Message#setDeliverTimeMs}, {@code setDelayTimeMs},
 * {@code setDelayTimeSec}): {@link org.modmq.broker.timer.TimerIntake} redirects such a send into
 * {@code rmq_sys_wheel_timer}; {@link org.modmq.broker.timer.TimerAgent} indexes those records in an on-disk
 * time wheel ({@link org.modmq.broker.timer.TimerWheel} plus {@link org.modmq.broker.timer.TimerLog}) and,
 * on a master only, stores each into its real topic and queue when it is due.
 */
package org.modmq.broker.timer;
