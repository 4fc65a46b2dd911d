package httpapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"go.yaml.in/yaml/v3"
)

// OpenAPIYAML is the OpenAPI 3.1 description of the interface: every route
// that register() lists, and nothing else (the tests hold both to that).
//
//go:embed openapi.yaml
var OpenAPIYAML []byte

// OpenAPIJSON is the same document as JSON, converted once at start-up with
// the order of the YAML kept.
var OpenAPIJSON = mustYAMLToJSON(OpenAPIYAML)

func mustYAMLToJSON(src []byte) []byte {
	out, err := yamlToJSON(src)
	if err != nil {
		panic("httpapi: openapi.yaml: " + err.Error())
	}
	return out
}

// yamlToJSON converts one YAML document to JSON, keeping the order of the
// mappings (encoding to a Go map would sort them) and the types of the
// scalars (the YAML 1.2 core schema of yaml.v3: 1 is a number, "1" a string).
func yamlToJSON(src []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := writeJSONNode(&buf, &doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeJSONNode(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return fmt.Errorf("line %d: want exactly one document", n.Line)
		}
		return writeJSONNode(buf, n.Content[0])
	case yaml.AliasNode:
		return writeJSONNode(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return fmt.Errorf("line %d: only plain keys are supported", k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
			}
			seen[k.Value] = true
			if i > 0 {
				buf.WriteByte(',')
			}
			key, _ := json.Marshal(k.Value)
			buf.Write(key)
			buf.WriteByte(':')
			if err := writeJSONNode(buf, v); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSONNode(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		var v any = n.Value // !!str, and !!timestamp as written
		switch n.ShortTag() {
		case "!!null", "!!bool", "!!int", "!!float":
			if err := n.Decode(&v); err != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
		case "!!str", "!!timestamp":
		default:
			return fmt.Errorf("line %d: unsupported YAML tag %s", n.Line, n.ShortTag())
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %q has no JSON form: %w", n.Line, n.Value, err)
		}
		buf.Write(b)
	default:
		return fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	return nil
}

// openAPIServerOrigins lists the origins of the document's servers, which the
// documentation page may call ("Try it out").
func openAPIServerOrigins() []string {
	var doc struct {
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(OpenAPIJSON, &doc); err != nil {
		panic("httpapi: openapi.json: " + err.Error())
	}
	var origins []string
	for _, s := range doc.Servers {
		u, err := url.Parse(s.URL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			panic(fmt.Sprintf("httpapi: openapi.yaml: server %q is not an absolute URL", s.URL))
		}
		origins = append(origins, u.Scheme+"://"+u.Host)
	}
	return origins
}

func (s *Server) openAPIYAML(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(OpenAPIYAML)
}

func (s *Server) openAPIJSON(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(OpenAPIJSON)
}
