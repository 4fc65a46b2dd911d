package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// TokenKeyLen is the length of TOKEN_ENCRYPTION_KEY once decoded: an AES-256 key.
const TokenKeyLen = 32

// ErrSealedToken is returned by Open for a sealed token that does not open:
// too short, altered, or sealed with another key.
var ErrSealedToken = errors.New("auth: sealed token does not open with this key")

// TokenCipher seals network_a access tokens at rest with AES-256-GCM. A sealed
// token is the random 12-byte nonce followed by the ciphertext and its tag, so
// sealing the same token twice gives two different values. It is safe for
// concurrent use.
type TokenCipher struct {
	aead cipher.AEAD
}

// NewTokenCipher makes a cipher from a standard-base64 key of 32 bytes (the
// value of TOKEN_ENCRYPTION_KEY, e.g. from `openssl rand -base64 32`). The
// error names TOKEN_ENCRYPTION_KEY and never repeats the key.
func NewTokenCipher(keyBase64 string) (*TokenCipher, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(keyBase64))
	if err != nil {
		return nil, errors.New("TOKEN_ENCRYPTION_KEY is not standard base64 (make one with `openssl rand -base64 32`)")
	}
	if len(key) != TokenKeyLen {
		return nil, fmt.Errorf("TOKEN_ENCRYPTION_KEY must decode to %d bytes, got %d (make one with `openssl rand -base64 32`)", TokenKeyLen, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("TOKEN_ENCRYPTION_KEY: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("TOKEN_ENCRYPTION_KEY: %w", err)
	}
	return &TokenCipher{aead: aead}, nil
}

// Seal encrypts token: nonce || ciphertext (with the GCM tag).
func (c *TokenCipher) Seal(token string) ([]byte, error) {
	nonce := make([]byte, c.aead.NonceSize(), c.aead.NonceSize()+len(token)+c.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("auth: token nonce: %w", err)
	}
	return c.aead.Seal(nonce, nonce, []byte(token), nil), nil
}

// Open decrypts what Seal made; anything else is ErrSealedToken.
func (c *TokenCipher) Open(sealed []byte) (string, error) {
	n := c.aead.NonceSize()
	if len(sealed) < n+c.aead.Overhead() {
		return "", ErrSealedToken
	}
	plain, err := c.aead.Open(nil, sealed[:n], sealed[n:], nil)
	if err != nil {
		return "", ErrSealedToken
	}
	return string(plain), nil
}
