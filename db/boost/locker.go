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

// heartbeat is how often the lock session is asked whether it is alive
// while it holds locks.
const heartbeat = 2 * time.Second

// locker holds the locks of the campaigns this process works on, all in one
// database session (EngineCampaignLock): the work itself does not hold a
// connection while it waits for network_a, and a process that dies releases
// every lock with its session. A campaign is locked once in the process too
// (PostgreSQL's session locks are re-entrant, and a pause and a cycle of one
// process share the session). When the session fails (a statement fails, or
// the heartbeat finds it gone), every lock it held is lost: the context
// handed out with them ends, so that their work stops before another engine
// takes the campaigns, and the next lock opens a new session. The session
// goes back to the pool when it holds no lock.
type locker struct {
	pool *pgxpool.Pool
	mu   sync.Mutex
	conn *pgxpool.Conn
	held map[int64]bool  // the campaigns locked in conn's session
	ctx  context.Context // ends when conn's locks are lost
	lost context.CancelFunc
	beat chan struct{} // closed to stop conn's heartbeat
}

func newLocker(pool *pgxpool.Pool) *locker { return &locker{pool: pool} }

// statementTimeout bounds one lock statement; it does not follow the
// caller's context, whose end would close the session and its other locks.
const statementTimeout = 10 * time.Second

// lock takes the campaign's lock without waiting: false when another engine,
// or another work of this one, holds it. The context answered ends when the
// lock is lost.
func (l *locker) lock(id int64) (context.Context, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[id] {
		return nil, false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	if l.conn == nil {
		conn, err := l.pool.Acquire(ctx)
		if err != nil {
			return nil, false, err
		}
		l.conn, l.held = conn, map[int64]bool{}
		l.ctx, l.lost = context.WithCancel(context.Background())
		l.beat = make(chan struct{})
		go l.heartbeat(conn, l.beat)
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
	l.held[id] = true
	return l.ctx, true, nil
}

// unlock releases the campaign's lock, when the current session holds it (a
// lock lost with an earlier session is gone already).
func (l *locker) unlock(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn == nil || !l.held[id] {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	released, err := db.New(l.conn).EngineCampaignUnlock(ctx, id)
	if err != nil || !released {
		// The session no longer is what this locker believes: start anew.
		l.drop()
		return
	}
	delete(l.held, id)
	l.idle()
}

// heartbeat asks the session whether it is alive every few seconds until
// stop is closed; a session that does not answer is dropped.
func (l *locker) heartbeat(conn *pgxpool.Conn, stop chan struct{}) {
	t := time.NewTicker(heartbeat)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		if l.conn != conn {
			l.mu.Unlock()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
		err := db.New(conn).EngineLockSessionAlive(ctx)
		cancel()
		if err != nil {
			l.drop()
		}
		l.mu.Unlock()
	}
}

// idle gives the session back to the pool when it holds no lock. Under l.mu.
func (l *locker) idle() {
	if len(l.held) == 0 && l.conn != nil {
		close(l.beat)
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
	close(l.beat)
	_ = l.conn.Hijack().Close(ctx)
	l.conn, l.held = nil, nil
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
