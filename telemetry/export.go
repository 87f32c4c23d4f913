package telemetry

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/guard-dev/guard/ccs"
	"github.com/guard-dev/guard/grants"
)

// scopeName is the instrumentation scope of everything guard sends.
const scopeName = "github.com/guard-dev/guard"

// exportTimeout bounds one export: a collector that does not answer fails
// the flush, which tries again later.
const exportTimeout = 15 * time.Second

// exporters are the OTLP log and metric exporters of one flush.
type exporters struct {
	logs    sdklog.Exporter
	metrics sdkmetric.Exporter
}

// newExporters builds the exporters for t. Only t says where records go
// and with what: the OTEL_EXPORTER_OTLP_* variables of the environment
// the flusher was started in (the agent's) are not read, and the
// exporters' own retries are off (the flusher retries on its next run).
func newExporters(ctx context.Context, t grants.Telemetry) (*exporters, error) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OTEL_EXPORTER_OTLP_") {
			os.Unsetenv(k)
		}
	}
	u, err := url.Parse(t.Endpoint)
	if err != nil {
		return nil, fmt.Errorf("telemetry: otlp_endpoint: %w", err)
	}
	headers := t.Headers
	if headers == nil {
		headers = map[string]string{}
	}
	delta := func(sdkmetric.InstrumentKind) metricdata.Temporality { return metricdata.DeltaTemporality }
	var e exporters
	switch t.Protocol {
	case grants.ProtoHTTP:
		base := strings.TrimSuffix(u.Path, "/")
		logURL, metricURL := *u, *u
		logURL.Path, metricURL.Path = base+"/v1/logs", base+"/v1/metrics"
		e.logs, err = otlploghttp.New(ctx, otlploghttp.WithEndpointURL(logURL.String()), otlploghttp.WithHeaders(headers),
			otlploghttp.WithTimeout(exportTimeout), otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
		if err == nil {
			e.metrics, err = otlpmetrichttp.New(ctx, otlpmetrichttp.WithEndpointURL(metricURL.String()), otlpmetrichttp.WithHeaders(headers),
				otlpmetrichttp.WithTimeout(exportTimeout), otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: false}),
				otlpmetrichttp.WithTemporalitySelector(delta))
		}
	default:
		e.logs, err = otlploggrpc.New(ctx, otlploggrpc.WithEndpointURL(t.Endpoint), otlploggrpc.WithHeaders(headers),
			otlploggrpc.WithTimeout(exportTimeout), otlploggrpc.WithRetry(otlploggrpc.RetryConfig{Enabled: false}))
		if err == nil {
			e.metrics, err = otlpmetricgrpc.New(ctx, otlpmetricgrpc.WithEndpointURL(t.Endpoint), otlpmetricgrpc.WithHeaders(headers),
				otlpmetricgrpc.WithTimeout(exportTimeout), otlpmetricgrpc.WithRetry(otlpmetricgrpc.RetryConfig{Enabled: false}),
				otlpmetricgrpc.WithTemporalitySelector(delta))
		}
	}
	if err != nil {
		e.shutdown()
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	return &e, nil
}

func (e *exporters) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if e.logs != nil {
		_ = e.logs.Shutdown(ctx)
	}
	if e.metrics != nil {
		_ = e.metrics.Shutdown(ctx)
	}
}

// collector is a log processor that keeps what the provider hands it (with
// the resource and scope set), for one synchronous export whose error the
// flusher sees: the SDK's own processors report export errors only to the
// global error handler.
type collector struct{ recs []sdklog.Record }

func (c *collector) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (c *collector) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.recs = append(c.recs, r.Clone())
	return nil
}
func (c *collector) Shutdown(context.Context) error   { return nil }
func (c *collector) ForceFlush(context.Context) error { return nil }

// Histogram bucket bounds, in seconds: guard's overhead is around a
// millisecond, commands take from milliseconds to the timeout.
var (
	overheadBounds = []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1}
	durationBounds = []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600}
)

// exportBatch sends recs as log records and their metrics. It returns nil
// only when the collector accepted both.
func (e *exporters) exportBatch(ctx context.Context, res *resource.Resource, recs []ccs.Record, t grants.Telemetry, hash func(string) string, now time.Time) error {
	col := &collector{}
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(col))
	logger := lp.Logger(scopeName)
	reader := sdkmetric.NewManualReader(sdkmetric.WithTemporalitySelector(func(sdkmetric.InstrumentKind) metricdata.Temporality {
		return metricdata.DeltaTemporality
	}))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(reader))
	meter := mp.Meter(scopeName)
	decisions, err := meter.Int64Counter("guard.decisions", metric.WithUnit("{decision}"),
		metric.WithDescription("decisions guard made, by decision, rule, answer and agent"))
	if err != nil {
		return err
	}
	overhead, err := meter.Float64Histogram("guard.overhead", metric.WithUnit("s"),
		metric.WithDescription("guard's own time on a command: before it started and after it ended"),
		metric.WithExplicitBucketBoundaries(overheadBounds...))
	if err != nil {
		return err
	}
	duration, err := meter.Float64Histogram("guard.command.duration", metric.WithUnit("s"),
		metric.WithDescription("how long the commands guard let run took, guard's time included"),
		metric.WithExplicitBucketBoundaries(durationBounds...))
	if err != nil {
		return err
	}
	for _, rec := range recs {
		attrs, err := attributes(rec, t, hash)
		if err != nil {
			return err
		}
		var r otellog.Record
		r.SetEventName(EventName)
		r.SetTimestamp(rec.Time)
		r.SetObservedTimestamp(now)
		sev, text := otellog.SeverityInfo, "INFO"
		if rec.Decision != string(grants.Allow) {
			sev, text = otellog.SeverityWarn, "WARN"
		}
		r.SetSeverity(sev)
		r.SetSeverityText(text)
		r.SetBody(attribute.StringValue(EventName))
		r.AddAttributes(attrs...)
		logger.Emit(ctx, r)

		cacheHit := attribute.Bool(CacheHitAttr, rec.Answer == "cache")
		dec := attribute.String("guard.decision", rec.Decision)
		decisions.Add(ctx, 1, metric.WithAttributes(dec, attribute.String("guard.rule", rec.Rule),
			attribute.String("guard.answer", rec.Answer), attribute.String("gen_ai.agent.name", rec.Agent)))
		if rec.OverheadUS > 0 {
			overhead.Record(ctx, float64(rec.OverheadUS)/1e6, metric.WithAttributes(dec, cacheHit))
		}
		if ran(rec) {
			duration.Record(ctx, float64(rec.DurationMS)/1e3, metric.WithAttributes(dec, cacheHit))
		}
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return err
	}
	ectx, cancel := context.WithTimeout(ctx, exportTimeout)
	defer cancel()
	if err := e.logs.Export(ectx, col.recs); err != nil {
		return fmt.Errorf("export logs: %w", err)
	}
	if err := e.metrics.Export(ectx, &rm); err != nil {
		return fmt.Errorf("export metrics: %w", err)
	}
	return nil
}

// ran reports whether the record's command ran (and so has a duration).
func ran(rec ccs.Record) bool {
	switch rec.Decision {
	case string(grants.Allow), "would-deny", "would-ask":
		return rec.Mode != "check" && rec.Mode != "hook" && rec.Mode != "cli"
	}
	return false
}
