package simulate

import (
	"testing"
	"time"
)

// BenchmarkSeedIncident is the design's seed incident: 3,000 queued
// executions on 40 workers × concurrency 10, the vendor down for 90 s.
func BenchmarkSeedIncident(b *testing.B) {
	set := build(b, oneNode)
	c := Config{Outages: []Outage{{"api.vendor.test", 90 * time.Second}}, Executions: 3000, Workers: 40, Concurrency: 10,
		Latency: 200 * time.Millisecond, Failure: Fail502, Seed: 1}
	var events int
	for b.Loop() {
		r, err := Run(set, c)
		if err != nil {
			b.Fatal(err)
		}
		events = r.Totals.Events
	}
	b.ReportMetric(float64(events), "events/op")
}

// BenchmarkSDKBackoff is one execution stream per second against a model
// whose SDK retries with p-retry's backoff, for a 10-minute outage.
func BenchmarkSDKBackoff(b *testing.B) {
	set := build(b, chainSDK)
	c := Config{Outages: []Outage{{"openai", 10 * time.Minute}}, RatePerMin: 60, Workers: 4, Concurrency: 10,
		Latency: 200 * time.Millisecond, Failure: Fail502, Seed: 1}
	var events int
	for b.Loop() {
		r, err := Run(set, c)
		if err != nil {
			b.Fatal(err)
		}
		events = r.Totals.Events
	}
	b.ReportMetric(float64(events), "events/op")
}
