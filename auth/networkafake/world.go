package networkafake

import (
	"maps"
	"slices"
	"sort"
	"time"
)

// world is what State carries, with the indexes that keep every call's cost
// independent of the number of objects and posts.
type world struct {
	users      map[string]*User     // by user token
	pageTokens map[string]string    // page token → page id
	pages      map[string]*Page     // by id: the latest description of the page
	expired    map[string]time.Time // ExpireToken: token → when it was expired

	// pageTokenUser is the User.Token of the user whose pages hold the page
	// token (the last one added); aliases map the tokens of exchanges and
	// IssueToken to their user's User.Token; ends are the ends of the
	// tokens that end besides a User's own (exchanged, IssueToken's, page
	// tokens read with a short-lived token); longLived are the exchanged.
	pageTokenUser map[string]string
	aliases       map[string]string
	ends          map[string]time.Time
	longLived     map[string]bool
	tokenSeq      int
	posts         map[string]*Post   // by id
	postPage      map[string]string  // post id → page id
	pagePosts     map[string][]*Post // page id → posts, newest first
	postSeq       int

	bPage        map[string]string   // network_b account id → the page that linked it last
	media        map[string]*Media   // by id
	mediaAccount map[string]string   // media id → network_b account id
	accountMedia map[string][]*Media // network_b account id → media, newest first
	mediaSeq     int

	objects     []*Object              // in creation order
	byID        map[string]*Object     // by id
	position    map[string]int         // object id → index in objects
	byOwner     map[ownerKey][]*Object // in creation order
	byName      map[nameKey][]*Object  // in creation order
	campaignAds map[string][]*Object   // campaign id → its ads, in creation order
	objSeq      int

	adAccounts   map[string]*AdAccount      // by id: the latest description of the account
	accountPages map[string]map[string]bool // ad account id → the pages of the users who have it
	cities       []City                     // in the order added (AddCity)
	cityByKey    map[string]City

	days      map[string][]dayFigures   // ad id → the days it has figures for, by date
	reviews   map[string]string         // by ad id (SetAdReview)
	feedback  map[string]ReviewFeedback // by ad id (SetAdReviewFeedback)
	usage     map[string]AccountUsage   // by ad account id (SetAccountUsage)
	throttles map[string]Throttle       // by ad account id (ThrottleAccount)
	noPayment map[string]bool           // ad account ids without a valid payment method (SetPaymentMethod)
}

// ownerKey names the objects of one kind of an ad account.
type ownerKey struct{ account, kind string }

// nameKey names the objects of one kind and name of an ad account.
type nameKey struct{ account, kind, name string }

func newWorld() world {
	return world{
		users:         map[string]*User{},
		pageTokens:    map[string]string{},
		pages:         map[string]*Page{},
		expired:       map[string]time.Time{},
		pageTokenUser: map[string]string{},
		aliases:       map[string]string{},
		ends:          map[string]time.Time{},
		longLived:     map[string]bool{},
		posts:         map[string]*Post{},
		postPage:      map[string]string{},
		pagePosts:     map[string][]*Post{},
		bPage:         map[string]string{},
		media:         map[string]*Media{},
		mediaAccount:  map[string]string{},
		accountMedia:  map[string][]*Media{},
		byID:          map[string]*Object{},
		position:      map[string]int{},
		byOwner:       map[ownerKey][]*Object{},
		byName:        map[nameKey][]*Object{},
		campaignAds:   map[string][]*Object{},
		adAccounts:    map[string]*AdAccount{},
		accountPages:  map[string]map[string]bool{},
		cityByKey:     map[string]City{},
		days:          map[string][]dayFigures{},
		reviews:       map[string]string{},
		feedback:      map[string]ReviewFeedback{},
		usage:         map[string]AccountUsage{},
		throttles:     map[string]Throttle{},
		noPayment:     map[string]bool{},
	}
}

// addUser adds the user, or replaces the user with the same token, with
// copies of its pages and ad accounts.
func (w *world) addUser(u User) {
	checkPermissions(u)
	u.Permissions = maps.Clone(u.Permissions)
	if !u.Issued.IsZero() {
		u.Issued = u.Issued.UTC().Truncate(time.Second)
	}
	u.Pages = slices.Clone(u.Pages)
	u.AdAccounts = slices.Clone(u.AdAccounts)
	for i := range u.Pages {
		p := u.Pages[i]
		if p.B != nil {
			b := *p.B
			p.B = &b
			u.Pages[i].B = &b
			w.bPage[b.ID] = p.ID
		}
		w.pages[p.ID] = &p
		if p.Token != "" {
			w.pageTokens[p.Token] = p.ID
			w.pageTokenUser[p.Token] = u.Token
		}
	}
	for i := range u.AdAccounts {
		acc := u.AdAccounts[i]
		w.adAccounts[acc.ID] = &acc
		if w.accountPages[acc.ID] == nil {
			w.accountPages[acc.ID] = map[string]bool{}
		}
		for _, p := range u.Pages {
			w.accountPages[acc.ID][p.ID] = true
		}
	}
	w.users[u.Token] = &u
}

// userCopy is a copy of the user with its pages' and network_b accounts'
// current followers; it shares nothing with the world.
func (w *world) userCopy(u *User) User {
	c := *u
	c.Pages = slices.Clone(u.Pages)
	for i := range c.Pages {
		cp := &c.Pages[i]
		p, ok := w.pages[cp.ID]
		if ok {
			cp.Followers = p.Followers
		}
		if cp.B != nil {
			b := *cp.B
			if ok && p.B != nil && p.B.ID == b.ID {
				b.Followers = p.B.Followers
			}
			cp.B = &b
		}
	}
	c.AdAccounts = slices.Clone(u.AdAccounts)
	c.Permissions = maps.Clone(u.Permissions)
	return c
}

// placePost adds the post to the page, after the page's posts created at
// the same time or later.
func (w *world) placePost(pageID string, p Post) {
	list := w.pagePosts[pageID]
	i := sort.Search(len(list), func(i int) bool { return list[i].Created.Before(p.Created) })
	w.pagePosts[pageID] = slices.Insert(list, i, &p)
	w.posts[p.ID] = &p
	w.postPage[p.ID] = pageID
}

// deletePost removes the post, if there is one.
func (w *world) deletePost(postID string) {
	pageID, ok := w.postPage[postID]
	if !ok {
		return
	}
	w.pagePosts[pageID] = slices.DeleteFunc(w.pagePosts[pageID], func(q *Post) bool { return q.ID == postID })
	delete(w.posts, postID)
	delete(w.postPage, postID)
}

// accountB answers the network_b account of the id and the page it is
// linked to; ok is false unless a page links it.
func (w *world) accountB(id string) (b *AccountB, pageID string, ok bool) {
	pageID, ok = w.bPage[id]
	if !ok {
		return nil, "", false
	}
	p := w.pages[pageID]
	if p == nil || p.B == nil || p.B.ID != id {
		return nil, "", false
	}
	return p.B, pageID, true
}

// placeMedia adds the media to the network_b account, after the account's
// media created at the same time or later.
func (w *world) placeMedia(accountID string, m Media) {
	list := w.accountMedia[accountID]
	i := sort.Search(len(list), func(i int) bool { return list[i].Created.Before(m.Created) })
	w.accountMedia[accountID] = slices.Insert(list, i, &m)
	w.media[m.ID] = &m
	w.mediaAccount[m.ID] = accountID
}

// deleteMedia removes the media, if there is one.
func (w *world) deleteMedia(mediaID string) {
	accountID, ok := w.mediaAccount[mediaID]
	if !ok {
		return
	}
	w.accountMedia[accountID] = slices.DeleteFunc(w.accountMedia[accountID], func(m *Media) bool { return m.ID == mediaID })
	if len(w.accountMedia[accountID]) == 0 {
		delete(w.accountMedia, accountID)
	}
	delete(w.media, mediaID)
	delete(w.mediaAccount, mediaID)
}

// addObject adds a new object, last in creation order.
func (w *world) addObject(o *Object) {
	w.byID[o.ID] = o
	w.position[o.ID] = len(w.objects)
	w.objects = append(w.objects, o)
	w.index(o)
}

// index puts the object, already in objects and byID, in the indexes.
func (w *world) index(o *Object) {
	own := ownerKey{o.AccountID, o.Kind}
	w.byOwner[own] = append(w.byOwner[own], o)
	name := nameKey{o.AccountID, o.Kind, o.Name}
	w.byName[name] = w.insertOrdered(w.byName[name], o)
	if o.Kind == "ad" {
		if _, campaign := w.parents(o); campaign != nil {
			w.campaignAds[campaign.ID] = w.insertOrdered(w.campaignAds[campaign.ID], o)
		}
	}
}

// rename gives the object a new name and moves it in the name index.
func (w *world) rename(o *Object, name string) {
	if name == o.Name {
		return
	}
	old := nameKey{o.AccountID, o.Kind, o.Name}
	w.byName[old] = slices.DeleteFunc(w.byName[old], func(x *Object) bool { return x == o })
	if len(w.byName[old]) == 0 {
		delete(w.byName, old)
	}
	o.Name = name
	key := nameKey{o.AccountID, o.Kind, o.Name}
	w.byName[key] = w.insertOrdered(w.byName[key], o)
}

// insertOrdered inserts the object into a list in creation order.
func (w *world) insertOrdered(list []*Object, o *Object) []*Object {
	at := w.position[o.ID]
	i := sort.Search(len(list), func(i int) bool { return w.position[list[i].ID] > at })
	return slices.Insert(list, i, o)
}

// parents answers an ad's ad set and campaign, or an ad set's campaign
// (adset nil); nil for what is not found.
func (w *world) parents(o *Object) (adset, campaign *Object) {
	switch o.Kind {
	case "ad":
		adset = w.byID[str(o.Fields, "adset_id")]
		if adset != nil {
			campaign = w.byID[str(adset.Fields, "campaign_id")]
		}
	case "adset":
		campaign = w.byID[str(o.Fields, "campaign_id")]
	}
	return adset, campaign
}

// effectiveStatus is the object's effective_status: DELETED when it, its
// campaign or its ad set is deleted; else ARCHIVED when one of them is
// archived; else an ad's review status; else PAUSED when it is paused itself,
// CAMPAIGN_PAUSED or ADSET_PAUSED when its campaign or ad set is (in that
// order); else ACTIVE.
func (w *world) effectiveStatus(o *Object) string {
	adset, campaign := w.parents(o)
	for _, gone := range []string{"DELETED", "ARCHIVED"} {
		for _, x := range []*Object{o, campaign, adset} {
			if x != nil && x.Status == gone {
				return gone
			}
		}
	}
	if r := w.reviews[o.ID]; r != "" && o.Kind == "ad" {
		return r
	}
	switch {
	case o.Status == "PAUSED":
		return "PAUSED"
	case campaign != nil && campaign.Status == "PAUSED":
		return "CAMPAIGN_PAUSED"
	case adset != nil && adset.Status == "PAUSED":
		return "ADSET_PAUSED"
	}
	return "ACTIVE"
}
