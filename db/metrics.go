package db

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// PoolCollector reports the statistics of connection pools (pgxpool.Stat)
// to Prometheus at each scrape, each pool's labelled with its name
// (pool="main", and "catalogue" for serve's pool of the catalogue's
// statements).
type PoolCollector struct {
	names []string
	pools []*pgxpool.Pool
}

// NewPoolCollector answers a collector of the statistics of pool, named
// "main".
func NewPoolCollector(pool *pgxpool.Pool) *PoolCollector {
	return &PoolCollector{names: []string{"main"}, pools: []*pgxpool.Pool{pool}}
}

// With adds the pool named name to the pools c reports.
func (c *PoolCollector) With(name string, pool *pgxpool.Pool) *PoolCollector {
	c.names = append(c.names, name)
	c.pools = append(c.pools, pool)
	return c
}

type poolMetric struct {
	desc  *prometheus.Desc
	kind  prometheus.ValueType
	value func(*pgxpool.Stat) float64
}

func poolDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc("adboost_db_pool_"+name, help, []string{"pool"}, nil)
}

var poolMetrics = []poolMetric{
	{poolDesc("max_conns", "Most connections the pool opens."), prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.MaxConns()) }},
	{poolDesc("total_conns", "Connections open or being opened."), prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.TotalConns()) }},
	{poolDesc("acquired_conns", "Connections in use."), prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.AcquiredConns()) }},
	{poolDesc("idle_conns", "Connections idle in the pool."), prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.IdleConns()) }},
	{poolDesc("constructing_conns", "Connections being opened."), prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.ConstructingConns()) }},
	{poolDesc("acquires_total", "Connections acquired from the pool."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.AcquireCount()) }},
	{poolDesc("acquire_seconds_total", "Time spent acquiring connections."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return s.AcquireDuration().Seconds() }},
	{poolDesc("empty_acquires_total", "Acquires that had to wait for a connection: the pool was exhausted."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.EmptyAcquireCount()) }},
	{poolDesc("empty_acquire_wait_seconds_total", "Time spent waiting by the acquires that found the pool exhausted."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return s.EmptyAcquireWaitTime().Seconds() }},
	{poolDesc("canceled_acquires_total", "Acquires cancelled by their context."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.CanceledAcquireCount()) }},
	{poolDesc("new_conns_total", "Connections opened."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.NewConnsCount()) }},
	{poolDesc("max_lifetime_destroys_total", "Connections closed for reaching their maximum lifetime."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.MaxLifetimeDestroyCount()) }},
	{poolDesc("max_idle_destroys_total", "Connections closed for being idle too long."), prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.MaxIdleDestroyCount()) }},
}

// Describe implements prometheus.Collector.
func (c *PoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range poolMetrics {
		ch <- m.desc
	}
}

// Collect implements prometheus.Collector.
func (c *PoolCollector) Collect(ch chan<- prometheus.Metric) {
	for i, pool := range c.pools {
		s := pool.Stat()
		for _, m := range poolMetrics {
			ch <- prometheus.MustNewConstMetric(m.desc, m.kind, m.value(s), c.names[i])
		}
	}
}
