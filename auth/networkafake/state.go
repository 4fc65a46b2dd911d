package networkafake

import (
	"slices"
	"sort"
)

// State is the whole world of a Fake, as plain values that encode to JSON:
// what a long-running fake (the sandbox) saves to survive a restart. The
// switches (faults, delay, paging, hook) and the recorded requests are not
// part of it.
type State struct {
	Users     []User              `json:"users"`     // with each page's current followers
	Expired   []string            `json:"expired"`   // expired tokens
	Posts     map[string][]Post   `json:"posts"`     // by page id, newest first
	Objects   []Object            `json:"objects"`   // in creation order
	Insights  map[string]Insights `json:"insights"`  // by ad id
	ObjectSeq int                 `json:"objectSeq"` // objects created so far
	PostSeq   int                 `json:"postSeq"`   // post ids made so far
}

// State answers a copy of the fake's world.
func (f *Fake) State() State {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := State{Posts: map[string][]Post{}, Insights: map[string]Insights{}, Objects: []Object{},
		ObjectSeq: f.objSeq, PostSeq: f.postSeq}
	tokens := make([]string, 0, len(f.users))
	for t := range f.users {
		tokens = append(tokens, t)
	}
	sort.Strings(tokens)
	for _, t := range tokens {
		u := *f.users[t]
		u.Pages = slices.Clone(u.Pages)
		for i := range u.Pages {
			if p, ok := f.pages[u.Pages[i].ID]; ok {
				u.Pages[i].Followers = p.Followers
			}
		}
		u.AdAccounts = slices.Clone(u.AdAccounts)
		s.Users = append(s.Users, u)
	}
	for t := range f.expired {
		s.Expired = append(s.Expired, t)
	}
	sort.Strings(s.Expired)
	for page, posts := range f.pagePosts {
		for _, p := range posts {
			s.Posts[page] = append(s.Posts[page], *p)
		}
	}
	for _, o := range f.objects {
		s.Objects = append(s.Objects, o.clone())
	}
	for id, in := range f.insights {
		s.Insights[id] = in
	}
	return s
}

// SetState replaces the fake's world with s (from State, possibly through
// JSON: object fields decoded with json.Decoder.UseNumber keep their
// integers exact).
func (f *Fake) SetState(s State) {
	fresh := New()
	for _, u := range s.Users {
		fresh.AddUser(u)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users, f.pageTokens, f.pages, f.accounts = fresh.users, fresh.pageTokens, fresh.pages, fresh.accounts
	f.expired = map[string]bool{}
	for _, t := range s.Expired {
		f.expired[t] = true
	}
	f.posts, f.pagePosts = map[string]*Post{}, map[string][]*Post{}
	for page, posts := range s.Posts {
		for i := range posts {
			p := posts[i]
			f.posts[p.ID] = &p
			f.pagePosts[page] = append(f.pagePosts[page], &p)
		}
		list := f.pagePosts[page]
		sort.SliceStable(list, func(i, j int) bool { return list[i].Created.After(list[j].Created) })
	}
	f.objects, f.byID = nil, map[string]*Object{}
	for _, o := range s.Objects {
		c := o.clone()
		f.objects = append(f.objects, &c)
		f.byID[c.ID] = &c
	}
	f.insights = map[string]Insights{}
	for id, in := range s.Insights {
		f.insights[id] = in
	}
	f.objSeq, f.postSeq = s.ObjectSeq, s.PostSeq
}
