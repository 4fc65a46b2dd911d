package auth

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func testKey(b byte) string {
	return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, TokenKeyLen))
}

func TestTokenCipherRoundTrip(t *testing.T) {
	c, err := NewTokenCipher(testKey(7))
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"EAAB-user-token-0123456789", "", strings.Repeat("x", 4096), "ünïcode"} {
		sealed, err := c.Seal(tok)
		if err != nil {
			t.Fatal(err)
		}
		if tok != "" && bytes.Contains(sealed, []byte(tok)) {
			t.Fatalf("sealed value holds the token text")
		}
		if want := 12 + len(tok) + 16; len(sealed) != want {
			t.Fatalf("sealed length %d, want nonce+text+tag = %d", len(sealed), want)
		}
		got, err := c.Open(sealed)
		if err != nil || got != tok {
			t.Fatalf("Open = %q, %v; want %q", got, err, tok)
		}
	}
}

func TestTokenCipherFreshNonce(t *testing.T) {
	c, _ := NewTokenCipher(testKey(1))
	a, _ := c.Seal("same")
	b, _ := c.Seal("same")
	if bytes.Equal(a, b) {
		t.Fatal("two seals of one token are equal: the nonce is not random")
	}
}

func TestTokenCipherRejects(t *testing.T) {
	c, _ := NewTokenCipher(testKey(1))
	other, _ := NewTokenCipher(testKey(2))
	sealed, _ := c.Seal("page-token")

	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	for name, in := range map[string][]byte{
		"other key": nil,
		"tampered":  tampered,
		"short":     sealed[:20],
		"empty":     {},
	} {
		var err error
		if name == "other key" {
			_, err = other.Open(sealed)
		} else {
			_, err = c.Open(in)
		}
		if !errors.Is(err, ErrSealedToken) {
			t.Errorf("%s: err = %v, want ErrSealedToken", name, err)
		}
	}
}

func TestNewTokenCipherBadKey(t *testing.T) {
	secret := base64.StdEncoding.EncodeToString([]byte("sixteen-byte-key"))
	for _, key := range []string{"", "not base64 !!", secret, testKey(1) + "AAAA"} {
		_, err := NewTokenCipher(key)
		if err == nil {
			t.Fatalf("key %q accepted", key)
		}
		if !strings.Contains(err.Error(), "TOKEN_ENCRYPTION_KEY") {
			t.Errorf("error %q does not name TOKEN_ENCRYPTION_KEY", err)
		}
		if key != "" && strings.Contains(err.Error(), key) {
			t.Errorf("error repeats the key")
		}
	}
	if _, err := NewTokenCipher(" " + testKey(3) + "\n"); err != nil {
		t.Errorf("key with surrounding space: %v", err)
	}
}
