package boost

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"adboost/db"
)

// errLockLost ends the work of campaigns whose locks went with a lost
// database session.
var errLockLost = errors.New("the engine's lock session was lost")

// locker holds the locks of the campaigns this process works on, all in one
// database session (EngineCampaignLock): the work itself does not hold a
// connection while it waits for network_a, and a process that dies releases
// every lock with its session. When the session fails, every lock it held
// is lost: the context handed out with them ends, so that their work stops
// before another engine takes the campaigns, and the next lock opens a new
// session. The session goes back to the pool when it holds no lock.
type locker struct {
	pool *pgxpool.Pool
	mu   sync.Mutex
	conn *pgxpool.Conn
	n    int             // locks held
	held context.Context // ends when conn's locks are lost
	lost context.CancelFunc
}

func newLocker(pool *pgxpool.Pool) *locker { return &locker{pool: pool} }

// statementTimeout bounds one lock statement; it does not follow the
// caller's context, whose end would close the session and its other locks.
const statementTimeout = 10 * time.Second

// lock takes the campaign's lock without waiting: false when another engine
// holds it. The context answered ends when the lock is lost.
func (l *locker) lock(id int64) (context.Context, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	if l.conn == nil {
		conn, err := l.pool.Acquire(ctx)
		if err != nil {
			return nil, false, err
		}
		l.conn = conn
		l.held, l.lost = context.WithCancel(context.Background())
	}
	locked, err := db.New(l.conn).EngineCampaignLock(ctx, id)
	if err != nil {
		l.drop()
		return nil, false, err
	}
	if !locked {
		l.idle()
		return nil, false, nil
	}
	l.n++
	return l.held, true, nil
}

// unlock releases the campaign's lock.
func (l *locker) unlock(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	if err := db.New(l.conn).EngineCampaignUnlock(ctx, id); err != nil {
		l.drop()
		return
	}
	l.n--
	l.idle()
}

// idle gives the session back to the pool when it holds no lock. Under l.mu.
func (l *locker) idle() {
	if l.n == 0 && l.conn != nil {
		l.conn.Release()
		l.conn = nil
		l.lost()
	}
}

// drop closes the session, which releases every lock it held, and ends the
// work that relied on them. Under l.mu.
func (l *locker) drop() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = l.conn.Hijack().Close(ctx)
	l.conn = nil
	l.n = 0
	l.lost()
}

// close ends the session, releasing its locks.
func (l *locker) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		l.drop()
	}
}
