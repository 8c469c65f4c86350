/**
 * Property-based fuzzing of RocketMQ-protocol servers, shared by modmq's in-suite fuzz tests and
 * {@code mq-bench fuzz}.
 *
 * <ul>
 *   <li>{@link org.modmq.fuzz.RequestGenerator} over a {@link org.modmq.fuzz.RequestCatalog} and a
 *       {@link org.modmq.fuzz.FuzzWorld}: requests of known and unknown codes with plausible, missing and
 *       hostile header fields and bodies;</li>
 *   <li>{@link org.modmq.fuzz.FrameWriter}: frames written byte by byte, apart from modmq's encoder;
 *       {@link org.modmq.fuzz.FrameMutator}: frames spoiled; {@link org.modmq.fuzz.FrameShape} and
 *       {@link org.modmq.fuzz.SendPlan}: what the framing rules say about bytes, and how to send them;</li>
 *   <li>{@link org.modmq.fuzz.FuzzRun}: a bounded run against a {@link org.modmq.fuzz.FuzzTarget} over a
 *       {@link org.modmq.fuzz.RawConnection}, reported in a {@link org.modmq.fuzz.FuzzReport};</li>
 *   <li>{@link org.modmq.fuzz.Trials}: seeded, bounded trials of an in-process property.</li>
 * </ul>
 *
 * <p>Plain JDK, no dependencies. Every draw comes from a caller's {@link java.util.SplittableRandom}, so a
 * seed repeats a run's inputs. Each type states its own thread-safety.
 */
package org.modmq.fuzz;
