package report

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// unsubscribePurpose binds a token to the weekly report's unsubscribe link:
// a MAC of the same user id made for another purpose does not verify.
const unsubscribePurpose = "adboost weekly report unsubscribe\x00"

// ErrBadToken is an unsubscribe token that is malformed, forged or altered.
var ErrBadToken = errors.New("the unsubscribe link is not valid")

// Key signs and verifies the unsubscribe links.
type Key []byte

// KeyFrom derives the links' key from a secret (the JWT secret), so that a
// link's MAC is of no use as an access token's signature and the reverse.
func KeyFrom(secret []byte) Key {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("adboost unsubscribe links"))
	return m.Sum(nil)
}

// UnsubscribeToken is the signed token of a user's unsubscribe link:
// the user id, a dot and the HMAC-SHA256 of the purpose and the id.
func (k Key) UnsubscribeToken(userID int64) string {
	id := strconv.FormatInt(userID, 10)
	return id + "." + base64.RawURLEncoding.EncodeToString(k.mac(id))
}

// VerifyUnsubscribe answers the user of a token UnsubscribeToken made, or
// ErrBadToken.
func (k Key) VerifyUnsubscribe(token string) (int64, error) {
	id, sig, ok := strings.Cut(token, ".")
	if !ok || len(k) == 0 {
		return 0, ErrBadToken
	}
	userID, err := strconv.ParseInt(id, 10, 64)
	if err != nil || userID <= 0 || strconv.FormatInt(userID, 10) != id {
		return 0, ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, k.mac(id)) {
		return 0, ErrBadToken
	}
	return userID, nil
}

func (k Key) mac(id string) []byte {
	m := hmac.New(sha256.New, k)
	m.Write([]byte(unsubscribePurpose))
	m.Write([]byte(id))
	return m.Sum(nil)
}
