package httpapi

import (
	"errors"
	"html/template"
	"net/http"

	"adboost/db/report"
)

// unsubscribePage is the short page the unsubscribe link answers.
var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.Title}}</title></head>
<body style="font-family: Arial, sans-serif; max-width: 36em; margin: 3em auto;">
<h1>{{.Title}}</h1>
<p>{{.Text}}</p>
</body></html>
`))

// userUnsubscribe is the weekly report's unsubscribe link: with a token
// signed for a user it turns their weekly report off; a forged, altered or
// missing token is 400. No sign-in: the signature stands for the user.
func (s *Server) userUnsubscribe(w http.ResponseWriter, r *http.Request) {
	userID, err := s.cfg.UnsubscribeKey.VerifyUnsubscribe(r.URL.Query().Get("token"))
	if errors.Is(err, report.ErrBadToken) {
		writeUnsubscribePage(w, http.StatusBadRequest, "This link is not valid",
			"This unsubscribe link is not one adboost sent, or it was changed. Open the link of the mail as it is, or turn the weekly report off in your profile.")
		return
	}
	n, err := s.q.ReportUnsubscribe(r.Context(), userID)
	switch {
	case err != nil:
		s.log.Error("unsubscribe", "user", userID, "err", err)
		writeUnsubscribePage(w, http.StatusInternalServerError, "Something went wrong",
			"The weekly report could not be turned off just now. Please open the link again in a moment.")
	case n == 0:
		writeUnsubscribePage(w, http.StatusNotFound, "No such account",
			"The account of this link no longer exists: it gets no mail.")
	default:
		writeUnsubscribePage(w, http.StatusOK, "You are unsubscribed",
			"You will no longer get the weekly report of your boosted posts. You can turn it on again in your profile.")
	}
}

func writeUnsubscribePage(w http.ResponseWriter, status int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = unsubscribePage.Execute(w, struct{ Title, Text string }{title, text})
}
