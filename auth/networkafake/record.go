package networkafake

import "slices"

// Request is an HTTP request the fake received: a plain call or a batch.
type Request struct {
	Method        string
	Path          string // with the query, as received
	Authorization string
	Body          string
}

// Call is one call the fake handled: a plain request or one entry of a
// batch.
type Call struct {
	Method  string
	Path    string // without the "/vNN.N" prefix, from "/", with the query as sent: "/456/posts?fields=id&since=1700000000"
	Token   string // the access token the call used, without "Bearer "; "" without one
	Body    string
	Batched bool // an entry of a batch
}

// record counts the call and, while recording, keeps it; under f.mu.
func (f *Fake) record(c call) {
	f.nCalls++
	if !f.recording {
		return
	}
	path := "/" + c.path
	if c.query != "" {
		path += "?" + c.query
	}
	f.calls = append(f.calls, Call{Method: c.method, Path: f.maskSecrets(path), Token: c.token,
		Body: f.maskSecrets(string(c.body)), Batched: c.batched})
}

// Requests answers every HTTP request received so far, in order; a batch is
// one request. Requests that SetFault or SetDelay kept from being handled
// are among them.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

// ClearRequests forgets the requests and the calls received so far (not
// their counts).
func (f *Fake) ClearRequests() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests, f.calls = nil, nil
}

// TakeRequests answers the requests received so far and forgets them, and
// the calls too.
func (f *Fake) TakeRequests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := f.requests
	f.requests, f.calls = nil, nil
	return seen
}

// Calls answers every call handled so far, in the order handled: each plain
// request and each batch entry that got past SetFault and SetDelay (a batch
// refused whole, for its token or its size, has none).
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// TakeCalls answers the calls handled so far and forgets them.
func (f *Fake) TakeCalls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := f.calls
	f.calls = nil
	return seen
}

// Counts answers how many HTTP requests the fake received and how many
// calls it handled (as Requests and Calls count them) since New or
// ResetCounts, whether they were recorded or not.
func (f *Fake) Counts() (requests, calls int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.nRequests, f.nCalls
}

// ResetCounts sets both counts of Counts to zero.
func (f *Fake) ResetCounts() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nRequests, f.nCalls = 0, 0
}

// SetRecording turns the lists of Requests and Calls on (as New starts) or
// off: while off, nothing is added to them, and Counts still counts. What
// was recorded before stays.
func (f *Fake) SetRecording(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recording = on
}
