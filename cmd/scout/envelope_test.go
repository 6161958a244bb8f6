package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/envelope"
)

// rawData marshals itself, as the content-mode results of amplifier grep do.
type rawData string

func (r rawData) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// streamData streams itself.
type streamData string

func (r streamData) MarshalJSON() ([]byte, error) { return []byte(r), nil }
func (r streamData) WriteJSON(w io.Writer) error {
	for i := 0; i < len(r); i += 3 {
		if _, err := io.WriteString(w, string(r[i:min(i+3, len(r))])); err != nil {
			return err
		}
	}
	return nil
}

// TestWriteEnvelope: the spliced output is byte for byte what json.Encoder
// without HTML escaping writes.
func TestWriteEnvelope(t *testing.T) {
	params := json.RawMessage(`{"pattern":"<a> & \"b\""}`)
	cases := []struct {
		name string
		env  *scout.Envelope
	}{
		{"self-marshalling data", &scout.Envelope{Status: scout.StatusSuccess, Data: rawData(`{"results":[{"content":"a<b>&\"data\":null"}]}`),
			Text: "x <y> & \"data\":null", Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params}}},
		{"streamed data", &scout.Envelope{Status: scout.StatusSuccess, Data: streamData(`{"a":[1,2,3],"b":"<c>"}`),
			Text: "t", Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params}}},
		{"plain data goes through encoding/json", &scout.Envelope{Status: scout.StatusPartial, Data: map[string]int{"n": 1},
			Text: "t", Stats: scout.Stats{Matched: 3}, Context: scout.EnvelopeContext{Cwd: ".", ParamsInput: params}}},
		{"error envelope, nil data", envelope.Error(errors.New("bad <input>"), params)},
	}
	for _, c := range cases {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c.env); err != nil {
			t.Fatal(err)
		}
		if err := writeEnvelope(&got, c.env); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got.String(), want.String())
		}
	}
	if err := writeEnvelope(&bytes.Buffer{}, &scout.Envelope{Data: rawData("")}); err == nil {
		t.Error("empty self-marshalled data: no error, a broken line would be written")
	}
}
