package tool

import "encoding/json"

// OpenAITool is a tool definition in the shape of OpenAI-style function
// calling ("tools": [{"type": "function", "function": {...}}]).
type OpenAITool struct {
	Type     string         `json:"type"` // always "function"
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function member of an OpenAITool.
type OpenAIFunction struct {
	Name        string          `json:"name"`        // the tool's name
	Description string          `json:"description"` // the model-facing description
	Parameters  json.RawMessage `json:"parameters"`  // the JSON Schema of the arguments object
}

// AnthropicTool is a tool definition in the shape of Anthropic-style tool
// use ("tools": [{"name", "description", "input_schema"}]).
type AnthropicTool struct {
	Name        string          `json:"name"`         // the tool's name
	Description string          `json:"description"`  // the model-facing description
	InputSchema json.RawMessage `json:"input_schema"` // the JSON Schema of the arguments object
}

// OpenAITools returns the toolset's tools as OpenAI-style functions, as
// Tools does ("" means DefaultToolset; an unknown toolset is an
// INVALID_PARAM error).
func OpenAITools(toolset string) ([]OpenAITool, error) {
	ts, err := Tools(toolset)
	if err != nil {
		return nil, err
	}
	out := make([]OpenAITool, len(ts))
	for i, t := range ts {
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: t.Description, Parameters: t.Schema}}
	}
	return out, nil
}

// AnthropicTools returns the toolset's tools as Anthropic-style tools, as
// Tools does ("" means DefaultToolset; an unknown toolset is an
// INVALID_PARAM error).
func AnthropicTools(toolset string) ([]AnthropicTool, error) {
	ts, err := Tools(toolset)
	if err != nil {
		return nil, err
	}
	out := make([]AnthropicTool, len(ts))
	for i, t := range ts {
		out[i] = AnthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.Schema}
	}
	return out, nil
}
