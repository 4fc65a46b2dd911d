package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/riverqueue/river"

	"adboost/auth"
	"adboost/auth/networka"
	"adboost/db"
	"adboost/db/mailer"
)

// emailChangeValidHours is how long the link of a verification mail works.
const emailChangeValidHours = 24

// result is the answer of user/save and user/verify-email.
type result struct {
	Result  bool   `json:"result"`
	Message string `json:"message"`
}

// socialRequest carries the user's network_a access token.
type socialRequest struct {
	AccessToken string `json:"access-token"`
}

func (r *socialRequest) validate() error {
	return checkAccessToken(r.AccessToken)
}

func checkAccessToken(token string) error {
	if token == "" {
		return badRequest("access-token is required")
	}
	if networka.CheckToken(token) != nil {
		return badRequest("access-token is not a network_a access token")
	}
	return nil
}

type preSignup struct {
	Email string `json:"email"`
}

type signupRequest struct {
	AccessToken string `json:"access-token"`
	PresetID    Int    `json:"preset_id"`
	Email       string `json:"email"`
}

func (r *signupRequest) validate() error {
	if err := checkAccessToken(r.AccessToken); err != nil {
		return err
	}
	if r.PresetID.Set && r.PresetID.V <= 0 {
		return badRequest("preset_id must be a positive integer")
	}
	r.Email = strings.TrimSpace(r.Email)
	if r.Email != "" && !validEmail(r.Email) {
		return badRequest("email %q is not a valid e-mail address", r.Email)
	}
	return nil
}

// network answers the network_a client, or 503 when none is configured.
func (s *Server) network() (*networka.Client, error) {
	if s.networkA == nil {
		return nil, unavailable("social sign-in is not available: network_a is not configured")
	}
	return s.networkA, nil
}

// networkAError maps a failure of network_a to the sign-in's answer: the
// token refused is 400 or 401 as network_a said, anything else 503. Only the
// kind of failure is logged, never the token.
func (s *Server) networkAError(ctx context.Context, err error) error {
	var answered *networka.Error
	switch {
	case errors.Is(err, networka.ErrToken):
		return badRequest("access-token is not a network_a access token")
	case errors.Is(err, networka.ErrAppRefused):
		s.log.ErrorContext(ctx, "network_a refused the exchange of a token: check NETWORK_A_APP_ID and NETWORK_A_APP_SECRET", "err", err)
		return unavailable("network_a refused this service's app settings; try again later")
	case errors.Is(err, networka.ErrUnavailable) && ctx.Err() != nil:
		s.log.WarnContext(ctx, "sign-in deadline passed while calling network_a", "err", err)
		return unavailable("the sign-in took longer than %s, network_a answering too slowly; try again later", s.cfg.SignInTimeout)
	case errors.Is(err, networka.ErrUnavailable):
		s.log.WarnContext(ctx, "network_a unavailable", "err", err)
		return unavailable("network_a is unreachable or failing; try again later")
	case errors.As(err, &answered) && (answered.Status == http.StatusBadRequest || answered.Status == http.StatusUnauthorized):
		s.log.InfoContext(ctx, "network_a refused an access token",
			"status", answered.Status, "type", answered.Type, "code", answered.Code)
		if answered.Status == http.StatusUnauthorized {
			return unauthorized("access-token was refused by network_a: it is invalid or expired")
		}
		return badRequest("access-token was refused by network_a: it is invalid or expired")
	case errors.As(err, &answered):
		s.log.WarnContext(ctx, "network_a answered sign-in with an error", "err", err)
		return unavailable("network_a is unreachable or failing; try again later")
	}
	return err
}

// userPreSignupSn answers the e-mail network_a knows for the token's user, for
// the sign-up form to show (empty when network_a shares none).
func (s *Server) userPreSignupSn(ctx context.Context, req *socialRequest) (preSignup, error) {
	n, err := s.network()
	if err != nil {
		return preSignup{}, err
	}
	me, err := n.Me(ctx, req.AccessToken)
	if err != nil {
		return preSignup{}, s.networkAError(ctx, err)
	}
	return preSignup{Email: me.Email}, nil
}

// userSignupSn creates the user of a network_a token, the user's agency and
// sources in one transaction, and signs the user in.
func (s *Server) userSignupSn(ctx context.Context, req *signupRequest) (userWithToken, error) {
	n, err := s.network()
	if err != nil {
		return userWithToken{}, err
	}
	me, err := n.Me(ctx, req.AccessToken)
	if err != nil {
		return userWithToken{}, s.networkAError(ctx, err)
	}
	email := req.Email
	if email == "" {
		if email = me.Email; email == "" {
			return userWithToken{}, badRequest("email is required: network_a shares no e-mail address of this user")
		}
		if !validEmail(email) {
			return userWithToken{}, badRequest("email is required: network_a's e-mail address %q is not a valid one", email)
		}
	}
	conn, err := s.connect(ctx, n, req.AccessToken)
	if err != nil {
		return userWithToken{}, err
	}
	first, last := cut(me.FirstName, 100), cut(me.LastName, 100)
	agency := strings.TrimSpace(first + " " + last)
	if agency == "" {
		agency = "My agency"
	}
	var id int64
	err = db.InTx(ctx, s.pool, func(q *db.Queries) error {
		id, err = q.UserSignup(ctx, db.UserSignupParams{
			Email: email, Snid: me.ID, FirstName: first, LastName: last,
			PresetID: req.PresetID.Ptr(), AgencyName: cut(agency, 100),
		})
		switch {
		case isNoRows(err):
			return badRequest("preset_id %d is not a preset you may use (it must exist, be active and public)", req.PresetID.V)
		case isViolation(err, pgerrcode.UniqueViolation, "app_user_email_key"):
			return conflict("email %s belongs to another account", email)
		case isViolation(err, pgerrcode.UniqueViolation, "app_user_snid_key"):
			return conflict("this network_a user has already signed up; log in instead")
		case err != nil:
			return err
		}
		return storeNetworkA(ctx, q, id, conn)
	})
	if err != nil {
		return userWithToken{}, err
	}
	return s.signedIn(ctx, id)
}

// userLoginSn signs in the user of a network_a token and refreshes the
// user's sources.
func (s *Server) userLoginSn(ctx context.Context, req *socialRequest) (userWithToken, error) {
	n, err := s.network()
	if err != nil {
		return userWithToken{}, err
	}
	me, err := n.Me(ctx, req.AccessToken)
	if err != nil {
		return userWithToken{}, s.networkAError(ctx, err)
	}
	id, err := s.q.UserIDBySnid(ctx, me.ID)
	if isNoRows(err) {
		return userWithToken{}, notFound("no account has signed up with this network_a user; sign up first")
	} else if err != nil {
		return userWithToken{}, err
	}
	conn, err := s.connect(ctx, n, req.AccessToken)
	if err != nil {
		return userWithToken{}, err
	}
	// Everything at once: the new tokens, their end, the permissions, and the
	// pauses they unblock (campaigns that should stop but waited for a
	// working token), enqueued, not waited for.
	err = s.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := storeNetworkA(ctx, q, id, conn); err != nil {
			return err
		}
		if conn.sealed == nil {
			return nil
		}
		pausing, err := q.EnginePausingCampaigns(ctx, id)
		if err != nil {
			return err
		}
		return s.enqueuePauses(ctx, tx, pausing)
	})
	if err != nil {
		return userWithToken{}, err
	}
	return s.signedIn(ctx, id)
}

// sealedTokens are a user's network_a token and the user's pages' tokens,
// sealed for the database: pages[i] is the token of the i-th
// page, nil where network_a answered none.
type sealedTokens struct {
	user  []byte
	pages [][]byte
}

// sealTokens seals the tokens of a sign-in; nil without a TokenCipher (the
// tokens are then not stored).
func (s *Server) sealTokens(userToken string, pages []networka.Page) (*sealedTokens, error) {
	c := s.cfg.TokenCipher
	if c == nil {
		return nil, nil
	}
	user, err := c.Seal(userToken)
	if err != nil {
		return nil, err
	}
	sealed := &sealedTokens{user: user, pages: make([][]byte, len(pages))}
	for i, p := range pages {
		if p.Token == "" {
			continue
		}
		if sealed.pages[i], err = c.Seal(p.Token); err != nil {
			return nil, err
		}
	}
	return sealed, nil
}

// connection is what a sign-in learnt from network_a: the user's pages,
// and, when tokens are stored, the sealed tokens, the user token's end
// (nil: unknown) and the needed permissions it lacks.
type connection struct {
	pages     []networka.Page
	sealed    *sealedTokens
	expiresAt *time.Time
	missing   []string
}

// connect reads from network_a what a sign-in with the token stores. When
// tokens are stored (TokenCipher) and the app is known (NetworkAApp), the
// token is first exchanged for a long-lived one, whose end is kept, and
// everything else is read with it, so that the pages' tokens last as long;
// then the pages and the permissions granted, of which the missing needed
// ones are kept (network_b's too when a page has a linked network_b
// account).
func (s *Server) connect(ctx context.Context, n *networka.Client, token string) (connection, error) {
	var c connection
	store := s.cfg.TokenCipher != nil
	if store && s.cfg.NetworkAApp.Set() {
		long, err := n.Exchange(ctx, s.cfg.NetworkAApp, token)
		if err != nil {
			return c, s.networkAError(ctx, err)
		}
		token = long.Token
		if long.ExpiresIn > 0 {
			end := time.Now().Add(long.ExpiresIn).Truncate(time.Second)
			c.expiresAt = &end
		}
	}
	var err error
	if c.pages, err = n.Accounts(ctx, token); err != nil {
		return c, s.networkAError(ctx, err)
	}
	if !store {
		return c, nil
	}
	granted, err := n.Permissions(ctx, token)
	if err != nil {
		return c, s.networkAError(ctx, err)
	}
	needed := [][]string{networka.NeededPermissions}
	if slices.ContainsFunc(c.pages, func(p networka.Page) bool { return p.NetworkB != nil }) {
		needed = append(needed, networka.NeededPermissionsNetworkB)
	}
	c.missing = networka.Missing(granted, needed...)
	c.sealed, err = s.sealTokens(token, c.pages)
	return c, err
}

// storeNetworkA writes what a sign-in learnt from network_a: the user's
// pages (refreshSources) and, when sealed, the user's token with its end and
// missing permissions, which also ends a mark of a refused one.
func storeNetworkA(ctx context.Context, q *db.Queries, userID int64, c connection) error {
	if err := refreshSources(ctx, q, userID, c.pages, c.sealed); err != nil {
		return err
	}
	if c.sealed == nil {
		return nil
	}
	p := db.UserNetworkATokenSaveParams{ID: userID, NetworkAToken: c.sealed.user, PermissionsMissing: c.missing}
	if p.PermissionsMissing == nil {
		p.PermissionsMissing = []string{}
	}
	if c.expiresAt != nil {
		p.ExpiresAt = pgtype.Timestamptz{Time: *c.expiresAt, Valid: true}
	}
	return q.UserNetworkATokenSave(ctx, p)
}

// refreshSources writes the user's network_a pages, with their network_b
// accounts and, when sealed, their tokens, as network_a answered them (two
// statements, whatever the number of pages). Pages no longer listed are kept.
func refreshSources(ctx context.Context, q *db.Queries, userID int64, pages []networka.Page, sealed *sealedTokens) error {
	if len(pages) == 0 {
		return nil
	}
	p := db.SourceRefreshParams{UserID: userID, StoreTokens: sealed != nil, AccessTokens: make([][]byte, len(pages))}
	if sealed != nil {
		p.AccessTokens = sealed.pages
	}
	var linked []int64
	for _, page := range pages {
		b := page.NetworkB
		if b == nil {
			b = &networka.AccountB{}
		} else {
			linked = append(linked, b.ID)
		}
		p.Ids = append(p.Ids, page.ID)
		p.Names = append(p.Names, page.Name)
		p.Pictures = append(p.Pictures, page.Picture)
		p.NetworkBIds = append(p.NetworkBIds, b.ID)
		p.NetworkBNames = append(p.NetworkBNames, b.Username)
		p.NetworkBPictures = append(p.NetworkBPictures, b.Picture)
	}
	if len(linked) > 0 {
		if err := q.SourceUnlinkNetworkB(ctx, db.SourceUnlinkNetworkBParams{UserID: userID, NetworkBIds: linked}); err != nil {
			return err
		}
	}
	return q.SourceRefresh(ctx, p)
}

type userSaveRequest struct {
	Email        string `json:"email"`
	PhoneNumber  string `json:"phone_number"`
	PhoneCountry string `json:"phone_country"`
	Password     string `json:"password"`
	// CurrentPassword must be the account's password to change the password
	// or the e-mail: a stolen access token alone takes over
	// nothing.
	CurrentPassword string `json:"current_password"`
	// WeeklyReport is whether the user gets the weekly report mail; absent
	// keeps it.
	WeeklyReport *bool `json:"weekly_report"`
}

// phoneNumber is the rule of app_user.phone_number.
var phoneNumber = regexp.MustCompile(`^\+?[0-9 ()-]{3,32}$`)

// countryCode is an ISO 3166 alpha-2 code, as geo_country keeps them.
var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

func (r *userSaveRequest) validate() error {
	r.Email = strings.TrimSpace(r.Email)
	r.PhoneNumber = strings.TrimSpace(r.PhoneNumber)
	r.PhoneCountry = strings.ToUpper(strings.TrimSpace(r.PhoneCountry))
	switch {
	case r.Email != "" && !validEmail(r.Email):
		return badRequest("email %q is not a valid e-mail address", r.Email)
	case r.PhoneNumber != "" && !phoneNumber.MatchString(r.PhoneNumber):
		return badRequest("phone_number must be 3 to 32 digits, spaces, parentheses or dashes, with an optional leading +")
	case r.PhoneCountry != "" && !countryCode.MatchString(r.PhoneCountry):
		return badRequest("phone_country must be a two-letter ISO 3166 country code")
	}
	if r.Password != "" {
		if err := auth.ValidatePassword(r.Password); err != nil {
			return badRequest("password %v", err)
		}
	}
	if len(r.CurrentPassword) > 1024 {
		return badRequest("current_password is longer than any password")
	}
	return nil
}

// checkCurrentPassword lets a change of the password or the e-mail through
// only with the account's current password, checked under the login
// limiter (so a stolen token cannot guess it either). An account without a
// password (made by social sign-up) may set its first one without it, but
// changes its e-mail only once it has one. When the password or the e-mail
// changes, it answers the password hash it decided on (nil: none yet), which
// userSave's write requires to be still in place (guard).
func (s *Server) checkCurrentPassword(ctx context.Context, id int64, req *userSaveRequest) (checked *string, guard bool, err error) {
	if req.Password == "" && req.Email == "" {
		return nil, false, nil
	}
	cred, err := s.q.UserCredentials(ctx, id)
	switch {
	case isNoRows(err):
		return nil, false, unauthorized("the account of this access token no longer exists")
	case err != nil:
		return nil, false, err
	}
	emailChanges := req.Email != "" && !strings.EqualFold(req.Email, cred.Email)
	switch {
	case req.Password == "" && !emailChanges:
		return nil, false, nil
	case cred.PasswordHash == nil && !emailChanges:
		return nil, true, nil // a first password, while there is none
	case cred.PasswordHash == nil:
		return nil, false, newError(http.StatusUnauthorized, "invalid_credentials",
			"this account has no password yet: set one first (no current_password needed), then change the e-mail with it as current_password")
	case req.CurrentPassword == "":
		return nil, false, newError(http.StatusUnauthorized, "invalid_credentials",
			"current_password is required to change the password or the e-mail")
	}
	attempt, err := s.reservePasswordCheck(ctx, cred.Email)
	if err != nil {
		return nil, false, err
	}
	ok, err := s.passwordChecked(ctx, attempt, cred.Email, cred.PasswordHash, req.CurrentPassword)
	switch {
	case err != nil:
		return nil, false, err
	case !ok:
		return nil, false, newError(http.StatusUnauthorized, "invalid_credentials", "current_password is not the password of this account")
	}
	return cred.PasswordHash, true, nil
}

// userSave changes the phone number, phone country and password at once; a
// new e-mail address waits for its verification link, whose mail is queued in
// the same transaction, with a notice to the current address. A new password
// ends every access token issued before it, the caller's too.
func (s *Server) userSave(ctx context.Context, req *userSaveRequest) (result, error) {
	checked, guard, err := s.checkCurrentPassword(ctx, userID(ctx), req)
	if err != nil {
		return result{}, err
	}
	if s.afterCredentialsCheck != nil {
		s.afterCredentialsCheck()
	}
	params := db.UserSettingsSaveParams{
		GuardCredentials: guard,
		CheckedHash:      checked,
		ID:               userID(ctx),
		PhoneNumber:      optional(req.PhoneNumber),
		PhoneCountry:     optional(req.PhoneCountry),
		NewEmail:         optional(req.Email),
	}
	if req.Password != "" {
		hash, err := auth.HashPassword(req.Password)
		if err != nil {
			return result{}, err
		}
		params.PasswordHash = &hash
	}
	token, tokenHash, err := newLinkToken()
	if err != nil {
		return result{}, err
	}
	answer := result{Result: true, Message: "Your profile has been saved."}
	if params.PasswordHash != nil {
		answer.Message = "Your profile has been saved. Your password has changed: sign in again with it."
	}
	err = s.inTx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if req.WeeklyReport != nil {
			// Saved with the rest: a refused save changes nothing.
			if err := q.UserWeeklyReportSave(ctx, db.UserWeeklyReportSaveParams{UserID: params.ID, WeeklyReport: *req.WeeklyReport}); err != nil {
				return err
			}
		}
		st, err := q.UserSettingsSave(ctx, params)
		switch {
		case err != nil:
			return err
		case !st.PhoneCountryKnown:
			return badRequest("phone_country %s is not a known country code", req.PhoneCountry)
		case st.EmailTaken:
			return conflict("email %s belongs to another account", req.Email)
		case st.CredentialsChanged:
			return conflict("the password of this account changed while this request ran; send it again")
		case !st.EmailChanges && params.PasswordHash != nil:
			// A new password also cancels a pending e-mail change, which
			// may be a thief's.
			return q.EmailChangeCancel(ctx, params.ID)
		case !st.EmailChanges:
			return nil
		}
		answer.Message = "A verification e-mail has been sent to " + req.Email + "."
		if params.PasswordHash != nil {
			answer.Message += " Your password has changed: sign in again with it."
		}
		return s.requestEmailChange(ctx, tx, q, mailer.EmailChange{
			FirstName: st.FirstName, OldEmail: st.Email, NewEmail: req.Email, ValidHours: emailChangeValidHours,
		}, tokenHash, s.cfg.PublicBaseURL+"/v1/user/verify-email?token="+token)
	})
	if err != nil {
		return result{}, err
	}
	return answer, nil
}

// newLinkToken answers a random token for a verification link and the
// SHA-256 that is stored instead of it.
func newLinkToken() (token string, hash []byte, err error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", nil, err
	}
	token = base64.RawURLEncoding.EncodeToString(raw)
	sum := sha256.Sum256([]byte(token))
	return token, sum[:], nil
}

// requestEmailChange keeps the change pending (EmailChangeRequest) and
// inserts, in tx, the jobs of its two mails: the link to the new address,
// the notice to the current one.
func (s *Server) requestEmailChange(ctx context.Context, tx pgx.Tx, q *db.Queries, change mailer.EmailChange,
	tokenHash []byte, link string) error {
	err := q.EmailChangeRequest(ctx, db.EmailChangeRequestParams{
		UserID: userID(ctx), NewEmail: change.NewEmail, TokenHash: tokenHash, ValidHours: int32(change.ValidHours),
	})
	if err != nil {
		return err
	}
	_, err = s.cfg.Jobs.InsertManyTx(ctx, tx, []river.InsertManyParams{
		{Args: mailer.EmailVerificationArgs{EmailChange: change, Link: link}},
		{Args: mailer.EmailChangeNoticeArgs{EmailChange: change}},
	})
	return err
}

type verifyEmailRequest struct {
	token string
}

func (r *verifyEmailRequest) bind(req *http.Request) error {
	r.token = req.URL.Query().Get("token")
	return nil
}

func (r *verifyEmailRequest) validate() error {
	if r.token == "" {
		return badRequest("token is required")
	}
	if raw, err := base64.RawURLEncoding.DecodeString(r.token); err != nil || len(raw) != 32 {
		return badRequest("token is not the token of a verification link")
	}
	return nil
}

// userVerifyEmail makes a pending e-mail address the user's, once per link.
func (s *Server) userVerifyEmail(ctx context.Context, req *verifyEmailRequest) (result, error) {
	sum := sha256.Sum256([]byte(req.token))
	email, err := s.q.EmailChangeConfirm(ctx, sum[:])
	switch {
	case isNoRows(err):
		return result{}, badRequest("token: this verification link is unknown, already used or expired; save the new e-mail address again for a new link")
	case isViolation(err, pgerrcode.UniqueViolation, "app_user_email_key"):
		return result{}, conflict("the new e-mail address belongs to another account by now")
	case err != nil:
		return result{}, err
	}
	return result{Result: true, Message: "Your e-mail address is now " + email + "."}, nil
}

// emailPattern is the rule of every e-mail column of the schema.
var emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// validEmail accepts a bare address (no display name, comment or quoting)
// that the schema accepts too.
func validEmail(s string) bool {
	if len(s) > 254 || !emailPattern.MatchString(s) || strings.ContainsAny(s, "<>()[]\\,;:\"") || hasControl(s) ||
		strings.IndexFunc(s, unicode.IsSpace) >= 0 { // PostgreSQL's \s, like the schema's CHECKs
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}

func hasControl(s string) bool { return strings.IndexFunc(s, unicode.IsControl) >= 0 }

// isViolation tells whether err is PostgreSQL's error code on the constraint.
func isViolation(err error, code, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == code && pgErr.ConstraintName == constraint
}

// optional answers nil for "" (the field is absent) and a pointer otherwise.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// cut shortens s to at most n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
