// Package auth issues and verifies access tokens, hashes passwords and talks
// to network_a for social sign-in.
package auth

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Issuer is the `iss` claim of every access token.
const Issuer = "adboost"

// MinSecretLen is the shortest HS256 key that is accepted, in bytes.
const MinSecretLen = 32

// ErrInvalidToken is returned for every token that does not verify: malformed,
// wrongly signed, of another algorithm, expired or of another issuer.
var ErrInvalidToken = errors.New("invalid access token")

// Tokens issues and verifies the HS256 JWTs that Bearer routes accept.
type Tokens struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

// NewTokens returns a token issuer with the given key and token lifetime.
func NewTokens(secret []byte, ttl time.Duration) (*Tokens, error) {
	if len(secret) < MinSecretLen {
		return nil, fmt.Errorf("the JWT secret must be at least %d bytes", MinSecretLen)
	}
	if ttl <= 0 {
		return nil, errors.New("the token lifetime must be positive")
	}
	return &Tokens{secret: secret, ttl: ttl, now: time.Now}, nil
}

// claims are the claims of an access token: the registered ones and the
// user's token generation.
type claims struct {
	jwt.RegisteredClaims
	// Generation is the user's token generation when the token was issued;
	// a password change moves it on and so ends every earlier token. Absent
	// (tokens issued before generations existed) reads as 0.
	Generation int64 `json:"gen"`
}

// Issue returns a signed access token for the user, of the user's current
// token generation.
func (t *Tokens) Issue(userID, generation int64) (string, error) {
	now := t.now()
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    Issuer,
			Subject:   strconv.FormatInt(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(t.ttl)),
		},
		Generation: generation,
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(t.secret)
}

// Verify checks the token's signature (HS256 only), issuer and expiry, and
// answers the user id of its subject and the token generation it carries.
// Whether that generation is still the user's is for the caller to check.
func (t *Tokens) Verify(token string) (userID, generation int64, err error) {
	var c claims
	_, err = jwt.ParseWithClaims(token, &c,
		func(*jwt.Token) (any, error) { return t.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil {
		return 0, 0, ErrInvalidToken
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil || id <= 0 || c.Generation < 0 {
		return 0, 0, ErrInvalidToken
	}
	return id, c.Generation, nil
}
