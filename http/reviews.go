package httpapi

import (
	"context"
	"unicode/utf8"

	"adboost/db"
)

// maxReviewMessage is the longest review message, in characters.
const maxReviewMessage = 2000

type reviewSubmitRequest struct {
	Rating   Int    `json:"rating"`
	PresetID Int    `json:"preset_id"`
	Message  string `json:"message"`
}

func (r *reviewSubmitRequest) validate() error {
	switch {
	case !r.PresetID.Set:
		return badRequest("preset_id is required")
	case r.PresetID.V < 1:
		return badRequest("preset_id must be a positive integer")
	case !r.Rating.Set:
		return badRequest("rating is required")
	case r.Rating.V < 1 || r.Rating.V > 5:
		return badRequest("rating must be an integer from 1 to 5")
	case utf8.RuneCountInString(r.Message) > maxReviewMessage:
		return badRequest("message must be at most %d characters", maxReviewMessage)
	}
	return noNUL("message", r.Message)
}

// reviewSubmit saves the user's review of a preset they can see; a preset
// that is inactive, private to another agency or unknown is 404.
func (s *Server) reviewSubmit(ctx context.Context, req *reviewSubmitRequest) (db.ReviewSubmitRow, error) {
	review, err := s.q.ReviewSubmit(ctx, db.ReviewSubmitParams{
		PresetID: req.PresetID.V, UserID: userID(ctx), Rating: int16(req.Rating.V), Message: req.Message,
	})
	if isNoRows(err) {
		return review, notFound("preset %d not found", req.PresetID.V)
	}
	return review, err
}
