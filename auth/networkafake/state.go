package networkafake

import (
	"maps"
	"slices"
	"sort"
	"time"
)

// State is the whole world of a Fake, as plain values that encode to JSON:
// what a long-running fake (the sandbox) saves to survive a restart. The
// switches (faults, delay, paging, hook, scripted failures, recording) and
// the recorded requests, calls and counts are not part of it.
type State struct {
	Users   []User   `json:"users"`   // with each page's and network_b account's current followers
	Expired []string `json:"expired"` // the tokens of ExpireToken
	// ExpiredAt is when each of Expired was expired.
	ExpiredAt map[string]time.Time `json:"expiredAt,omitempty"`
	// Aliases map the tokens of exchanges and IssueToken to their user's
	// User.Token; TokenEnds are the ends of the tokens that end besides a
	// User's own; LongLived are the exchanged tokens, sorted; TokenSeq
	// counts the exchanges.
	Aliases   map[string]string    `json:"aliases,omitempty"`
	TokenEnds map[string]time.Time `json:"tokenEnds,omitempty"`
	LongLived []string             `json:"longLived,omitempty"`
	TokenSeq  int                  `json:"tokenSeq,omitempty"`
	Posts     map[string][]Post    `json:"posts"`   // by page id, newest first
	Objects   []Object             `json:"objects"` // in creation order
	// Insights are ads' lifetime figures by ad id, as SetAdInsights sets
	// them: SetState keeps each as the figures of the day it is called.
	// State answers every ad's figures in InsightDays instead.
	Insights map[string]Insights `json:"insights,omitempty"`
	// InsightDays are the ads' figures by ad id and day ("YYYY-MM-DD").
	InsightDays map[string]map[string]Insights `json:"insightDays,omitempty"`
	Reviews     map[string]string              `json:"reviews,omitempty"`         // review statuses by ad id (SetAdReview)
	Feedback    map[string]ReviewFeedback      `json:"reviewFeedback,omitempty"`  // by ad id (SetAdReviewFeedback)
	Cities      []City                         `json:"cities,omitempty"`          // in the order added (AddCity)
	Usage       map[string]AccountUsage        `json:"usage,omitempty"`           // by ad account id (SetAccountUsage)
	Throttles   map[string]Throttle            `json:"throttles,omitempty"`       // by ad account id (ThrottleAccount)
	ObjectSeq   int                            `json:"objectSeq"`                 // objects created so far
	PostSeq     int                            `json:"postSeq"`                   // post ids made so far
	NoPayment   []string                       `json:"noPaymentMethod,omitempty"` // ad accounts without a valid payment method (SetPaymentMethod), sorted
	Media       map[string][]Media             `json:"media,omitempty"`           // by network_b account id, newest first; nil without any
	MediaSeq    int                            `json:"mediaSeq,omitempty"`        // media ids made so far
}

// State answers a copy of the fake's world.
func (f *Fake) State() State {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := State{Posts: map[string][]Post{}, Objects: []Object{},
		InsightDays: map[string]map[string]Insights{}, Reviews: maps.Clone(f.reviews),
		Feedback: maps.Clone(f.feedback), Cities: slices.Clone(f.cities),
		Usage: maps.Clone(f.usage), Throttles: maps.Clone(f.throttles),
		ObjectSeq: f.objSeq, PostSeq: f.postSeq, MediaSeq: f.mediaSeq}
	tokens := make([]string, 0, len(f.users))
	for t := range f.users {
		tokens = append(tokens, t)
	}
	sort.Strings(tokens)
	for _, t := range tokens {
		s.Users = append(s.Users, f.userCopy(f.users[t]))
	}
	for t, at := range f.expired {
		s.Expired = append(s.Expired, t)
		if s.ExpiredAt == nil {
			s.ExpiredAt = map[string]time.Time{}
		}
		s.ExpiredAt[t] = at
	}
	sort.Strings(s.Expired)
	f.tokenState(&s)
	for id := range f.noPayment {
		s.NoPayment = append(s.NoPayment, id)
	}
	sort.Strings(s.NoPayment)
	for page, posts := range f.pagePosts {
		for _, p := range posts {
			s.Posts[page] = append(s.Posts[page], *p)
		}
	}
	for account, media := range f.accountMedia {
		if s.Media == nil {
			s.Media = map[string][]Media{}
		}
		for _, m := range media {
			s.Media[account] = append(s.Media[account], *m)
		}
	}
	for _, o := range f.objects {
		s.Objects = append(s.Objects, o.clone())
	}
	for ad, days := range f.days {
		s.InsightDays[ad] = make(map[string]Insights, len(days))
		for _, d := range days {
			s.InsightDays[ad][d.date] = d.in
		}
	}
	return s
}

// SetState replaces the fake's world with s (from State, possibly through
// JSON: object fields decoded with json.Decoder.UseNumber keep their
// integers exact) and builds its indexes again.
func (f *Fake) SetState(s State) {
	w := newWorld()
	for _, u := range s.Users {
		w.addUser(u)
	}
	for _, t := range s.Expired {
		w.expired[t] = s.ExpiredAt[t]
	}
	w.setTokenState(s)
	for page, posts := range s.Posts {
		for _, p := range posts {
			w.placePost(page, p)
		}
	}
	for account, media := range s.Media {
		for _, m := range media {
			w.placeMedia(account, m)
		}
	}
	for _, o := range s.Objects {
		c := o.clone()
		w.byID[c.ID] = &c
		w.position[c.ID] = len(w.objects)
		w.objects = append(w.objects, &c)
	}
	for _, o := range w.objects { // after all are known: an ad finds its campaign
		w.index(o)
	}
	for _, c := range s.Cities {
		w.addCity(c)
	}
	for ad, days := range s.InsightDays {
		for date, in := range days {
			w.setDay(ad, date, in)
		}
	}
	maps.Copy(w.reviews, s.Reviews)
	maps.Copy(w.feedback, s.Feedback)
	maps.Copy(w.usage, s.Usage)
	maps.Copy(w.throttles, s.Throttles)
	for _, id := range s.NoPayment {
		w.noPayment[actID(id)] = true
	}
	w.objSeq, w.postSeq, w.mediaSeq = s.ObjectSeq, s.PostSeq, s.MediaSeq

	f.mu.Lock()
	defer f.mu.Unlock()
	f.world = w
	for ad, in := range s.Insights {
		account := ""
		if o, ok := w.byID[ad]; ok {
			account = o.AccountID
		}
		f.days[ad] = []dayFigures{{f.today(account), in}}
	}
}
