package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// clockTick is the unit of the CPU times of /proc/<pid>/stat (USER_HZ,
// 100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuMeter reads the CPU time that adboost serve and the PostgreSQL
// backends of its database have used so far: the cost of the requests
// themselves, which the machine's load (other processes on the same cores)
// does not change, unlike req/s and latencies. The benchmark's client
// (vegeta, in this process) is not counted here; result.ClientCPU is its
// share, measured apart.
type cpuMeter struct {
	conn    *pgx.Conn // to the benchmark's database, to find its backends
	adboost int       // adboost serve's pid
}

// used answers the CPU time used by adboost and the backends connected to
// the database now (the meter's own excepted). A backend that ends between
// two readings takes its time with it; adboost's pool keeps its
// connections for the whole run.
func (m *cpuMeter) used(ctx context.Context) (time.Duration, error) {
	rows, err := m.conn.Query(ctx, `SELECT pid FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`)
	if err != nil {
		return 0, err
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return 0, err
	}
	total := procCPU(m.adboost)
	for _, pid := range pids {
		total += procCPU(int(pid))
	}
	return total, nil
}

// procCPU answers the user and system CPU time of a process (0 when it is
// gone).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; the fields after it do not.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64) // field 14 of the whole line
	stime, _ := strconv.ParseInt(f[12], 10, 64) // field 15
	return time.Duration(utime+stime) * clockTick
}
