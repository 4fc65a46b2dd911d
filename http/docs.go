package httpapi

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strings"
)

// docsFiles is the documentation page: our index.html and docs.js, and the
// Swagger UI files that `make docs-assets` copies from the npm package
// swagger-ui-dist (pinned in the Makefile). Nothing is loaded from elsewhere.
//
//go:embed docs/index.html docs/docs.js docs/swagger-ui-bundle.js docs/swagger-ui.css
var docsFiles embed.FS

// docsAssets are the files served under /docs/{asset}, with their types.
var docsAssets = map[string]string{
	"docs.js":              "text/javascript; charset=utf-8",
	"swagger-ui-bundle.js": "text/javascript; charset=utf-8",
	"swagger-ui.css":       "text/css; charset=utf-8",
}

// docsCSP keeps the page to its own scripts and styles; only "Try it out"
// may reach the servers of the document.
var docsCSP = strings.Join([]string{
	"default-src 'none'",
	"script-src 'self'",
	"style-src 'self' 'unsafe-inline'",
	"img-src 'self' data:",
	"font-src 'self' data:",
	"connect-src 'self' " + strings.Join(openAPIServerOrigins(), " "),
	"base-uri 'none'",
	"form-action 'none'",
	"frame-ancestors 'none'",
}, "; ")

func (s *Server) docsPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", docsCSP)
	serveDocsFile(w, r, "index.html", "text/html; charset=utf-8")
}

func (s *Server) docsAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("asset")
	ctype, ok := docsAssets[name]
	if !ok {
		writeError(w, notFound("no documentation file %q", name))
		return
	}
	serveDocsFile(w, r, name, ctype)
}

// docsETags are the entity tags of the files, computed once.
var docsETags = func() map[string]string {
	tags := map[string]string{}
	for _, name := range []string{"index.html", "docs.js", "swagger-ui-bundle.js", "swagger-ui.css"} {
		data, err := docsFiles.ReadFile("docs/" + name)
		if err != nil {
			panic("httpapi: " + err.Error())
		}
		sum := sha256.Sum256(data)
		tags[name] = `"` + hex.EncodeToString(sum[:12]) + `"`
	}
	return tags
}()

func serveDocsFile(w http.ResponseWriter, r *http.Request, name, ctype string) {
	data, err := docsFiles.ReadFile("docs/" + name)
	if err != nil {
		writeError(w, errInternal)
		return
	}
	etag := docsETags[name]
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache") // revalidate with the ETag
	h.Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write(data)
}
