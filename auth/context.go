package auth

import "context"

type userIDKey struct{}

// WithUserID returns a context that carries the signed-in user's id.
func WithUserID(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, userIDKey{}, id)
}

// UserID answers the signed-in user's id of a request context.
func UserID(ctx context.Context) (int64, bool) {
	id, ok := ctx.Value(userIDKey{}).(int64)
	return id, ok
}
