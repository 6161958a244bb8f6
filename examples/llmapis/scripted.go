package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// The scripted models answer like the APIs: a tool call on the first turn
// (find the Go files), a second one on the next (search for func main), then
// a text answer that quotes the last tool result they were sent. They keep
// the requests, for the tests.

type scripted struct {
	mu       sync.Mutex
	requests []map[string]any
}

func (s *scripted) record(r *http.Request) (map[string]any, int) {
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, body)
	return body, len(s.requests)
}

// scriptedCalls are the tool calls of the first two turns.
var scriptedCalls = []struct{ name, args string }{
	{"find", `{"paths": ["**/*.go"], "limit": 20}`},
	{"search", `{"paths": ".", "pattern": "func main"}`},
}

type openAIScript struct{ scripted }

func scriptedOpenAI() *openAIScript { return &openAIScript{} }

func (s *openAIScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, turn := s.record(r)
	w.Header().Set("Content-Type", "application/json")
	msg := map[string]any{"role": "assistant", "content": nil}
	finish := "tool_calls"
	if turn <= len(scriptedCalls) {
		c := scriptedCalls[turn-1]
		msg["tool_calls"] = []any{map[string]any{"id": fmt.Sprintf("call_%d", turn), "type": "function",
			"function": map[string]any{"name": c.name, "arguments": c.args}}}
	} else {
		msgs, _ := body["messages"].([]any)
		last, _ := msgs[len(msgs)-1].(map[string]any)
		msg["content"] = "The search says: " + firstLine(fmt.Sprint(last["content"]))
		finish = "stop"
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": body["model"],
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg}}})
}

type anthropicScript struct{ scripted }

func scriptedAnthropic() *anthropicScript { return &anthropicScript{} }

func (s *anthropicScript) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, turn := s.record(r)
	w.Header().Set("Content-Type", "application/json")
	var content []any
	stop := "tool_use"
	if turn <= len(scriptedCalls) {
		c := scriptedCalls[turn-1]
		content = []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", turn), "name": c.name, "input": json.RawMessage(c.args)}}
	} else {
		msgs, _ := body["messages"].([]any)
		last, _ := msgs[len(msgs)-1].(map[string]any)
		blocks, _ := last["content"].([]any)
		text := ""
		if len(blocks) > 0 {
			b, _ := json.Marshal(blocks[0].(map[string]any)["content"])
			var parts []struct{ Text string }
			json.Unmarshal(b, &parts)
			if len(parts) > 0 {
				text = parts[0].Text
			}
		}
		content = []any{map[string]any{"type": "text", "text": "The search says: " + firstLine(text)}}
		stop = "end_turn"
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_scripted", "type": "message", "role": "assistant", "model": body["model"],
		"content": content, "stop_reason": stop, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}})
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
