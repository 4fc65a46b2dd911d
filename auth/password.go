package auth

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// MinPasswordLen is the shortest password accepted, in characters.
const MinPasswordLen = 8

// maxPasswordBytes is what bcrypt reads of a password; longer ones are refused
// rather than silently cut.
const maxPasswordBytes = 72

// PasswordCost is the bcrypt cost of new hashes.
var PasswordCost = bcrypt.DefaultCost

// ErrPasswordMismatch is returned by CheckPassword for a wrong password.
var ErrPasswordMismatch = errors.New("password does not match")

// ValidatePassword tells why a new password is not acceptable, or nil.
func ValidatePassword(password string) error {
	if utf8.RuneCountInString(password) < MinPasswordLen {
		return fmt.Errorf("must be at least %d characters", MinPasswordLen)
	}
	if len(password) > maxPasswordBytes {
		return fmt.Errorf("must be at most %d bytes", maxPasswordBytes)
	}
	return nil
}

// HashPassword validates and hashes a new password with bcrypt.
func HashPassword(password string) (string, error) {
	if err := ValidatePassword(password); err != nil {
		return "", err
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return "", err
	}
	return string(h), nil
}

// dummyHash is compared against when the account does not exist, so that an
// unknown e-mail costs as much time as a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("adboost-no-such-account"), bcrypt.DefaultCost)

// CheckPassword compares a password with a stored hash. A nil hash (no
// account, or an account without a password) never matches but takes as long.
func CheckPassword(hash *string, password string) error {
	if hash == nil || len(password) > maxPasswordBytes {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return ErrPasswordMismatch
	}
	if err := bcrypt.CompareHashAndPassword([]byte(*hash), []byte(password)); err != nil {
		return ErrPasswordMismatch
	}
	return nil
}
