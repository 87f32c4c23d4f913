// Package telemetry ships guard's audit records to an OpenTelemetry
// Collector over OTLP, with the official SDK and exporters
// (go.opentelemetry.io/otel). It is guard-cli's, never guard's: the lean
// guard only appends each record to the journal (package ccs) and, when
// [telemetry] is set, starts guard-cli telemetry flush at most once a
// minute (ccs.ClaimFlush). guard serve runs the same flush on a timer.
//
// # What is sent
//
// One log record per decision, whose timestamp is the decision's time and
// whose attributes are the audit record's fields, renamed to the
// OpenTelemetry semantic conventions where one exists (process.exit.code,
// process.command_line, session.id, gen_ai.agent.name) and under guard.*
// otherwise (Fields lists them all; docs/formats.md documents them). The
// mapping is driven by the record's JSON form, so guard audit --json and
// the OTLP records cannot drift apart: a field the table lacks fails the
// flush, and a test. Beside the logs, per batch: a counter of decisions
// (guard.decisions, by decision, rule, answer and agent) and histograms of
// guard's own overhead (guard.overhead) and of the commands' duration
// (guard.command.duration), in seconds, with delta temporality: each
// flush sends what its batch counted.
//
// What leaves the machine is bounded by the settings: include_command =
// "redacted" sends the command as the audit keeps it (secrets already
// redacted), "hash" only its keyed hash, "none" neither; project =
// "hashed" sends a hash of the project root (and no working directory),
// "named" its base name and the working directory.
//
// # Position, retries, duplicates
//
// Records are read from the audit database (after importing the journal,
// which rotation moves into it) in row-id order, a batch at a time. The
// last exported row id is kept in telemetry.state in the state directory,
// written atomically (temporary file, fsync, rename) after each batch the
// collector accepted, and only then: a collector that is down loses
// nothing, the batch is sent again by the next flush, and the flusher
// waits longer after each failure (1, 2, 4 … up to 30 minutes; the due
// time in telemetry.due). A flusher killed between the collector's answer
// and the rename sends that one batch again; every record carries
// guard.record.id and the resource service.instance.id (one per state
// directory), so a backend can drop the duplicate. One flusher runs at a
// time (an exclusive lock on telemetry.lock).
package telemetry
