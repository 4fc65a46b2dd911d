package boost

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/auth/networka"
	"adboost/db"
)

// throttleRefresh is how often an engine reads the pauses that other
// instances learnt.
const throttleRefresh = 2 * time.Second

// throttleStore keeps network_a's pauses in PostgreSQL (network_a_throttle),
// so that every instance honours the pauses any of them learnt: the client
// reports each one it learns (record), and the engine reads those in force
// before a campaign's work, at most every throttleRefresh (refresh).
type throttleStore struct {
	pool *pgxpool.Pool
	api  *networka.Client
	log  *slog.Logger

	mu     sync.Mutex
	loaded time.Time
}

// record keeps a pause the client learnt.
func (s *throttleStore) record(th networka.Throttle) {
	s.log.Warn("engine: network_a asks for a pause", "scope", string(th.Scope), "key", th.Key,
		"until", th.Until.UTC().Format(time.RFC3339))
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	err := db.New(s.pool).NetworkAThrottleRecord(ctx, db.NetworkAThrottleRecordParams{
		Scope: string(th.Scope), Key: th.Key, Until: th.Until})
	if err != nil {
		s.log.Error("engine: a pause of network_a could not be kept for the other instances", "err", err)
	}
}

// refresh loads the pauses in force when they were last read more than
// throttleRefresh ago. A failure is logged: the pauses this process knows
// still hold.
func (s *throttleStore) refresh(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.loaded) < throttleRefresh {
		return
	}
	rows, err := db.New(s.pool).NetworkAThrottleActive(ctx)
	if err != nil {
		s.log.Warn("engine: reading network_a's pauses", "err", err)
		return
	}
	s.loaded = time.Now()
	list := make([]networka.Throttle, len(rows))
	for i, r := range rows {
		list[i] = networka.Throttle{Scope: networka.ScopeKind(r.Scope), Key: r.Key, Until: r.Until}
	}
	s.api.Throttles().Load(list)
}
