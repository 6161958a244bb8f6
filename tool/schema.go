package tool

import (
	"bytes"
	"encoding/json"
)

// schemaOf returns the JSON Schema of an arguments struct (see args.go):
// an object whose properties, in field order, carry each argument's type,
// description, default, bounds and enum; the required ones listed; no other
// property allowed.
func schemaOf(fields []argField) json.RawMessage {
	s := objectSchema{Type: "object", AdditionalProperties: false}
	for i := range fields {
		f := &fields[i]
		s.Properties.names = append(s.Properties.names, f.name)
		s.Properties.props = append(s.Properties.props, f.schema())
		if f.required {
			s.Required = append(s.Required, f.name)
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic("tool: schema: " + err.Error()) // only strings, numbers and booleans: cannot happen
	}
	return b
}

// objectSchema is the schema of an arguments object.
type objectSchema struct {
	Type                 string     `json:"type"`
	Properties           properties `json:"properties"`
	Required             []string   `json:"required,omitempty"`
	AdditionalProperties bool       `json:"additionalProperties"`
}

// schemaProp is the schema of one argument.
type schemaProp struct {
	Type        string       `json:"type,omitempty"`
	AnyOf       []schemaProp `json:"anyOf,omitempty"`
	Items       *schemaProp  `json:"items,omitempty"`
	MinLength   int          `json:"minLength,omitempty"`
	MinItems    int          `json:"minItems,omitempty"`
	Enum        []string     `json:"enum,omitempty"`
	Minimum     *float64     `json:"minimum,omitempty"`
	Maximum     *float64     `json:"maximum,omitempty"`
	Default     any          `json:"default,omitempty"`
	Description string       `json:"description,omitempty"`
}

// properties keeps the arguments in field order (a map would sort them).
type properties struct {
	names []string
	props []schemaProp
}

// MarshalJSON writes the properties as one object, in order.
func (p properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range p.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		v, err := json.Marshal(p.props[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// schema is the argument's property schema. A required string or list
// must not be empty, as the decoder says.
func (f *argField) schema() schemaProp {
	p := schemaProp{Enum: f.enum, Minimum: f.min, Maximum: f.max, Description: f.desc}
	if f.def.IsValid() {
		p.Default = f.def.Interface()
	}
	nonEmpty := 0
	if f.required {
		nonEmpty = 1
	}
	str := schemaProp{Type: "string", MinLength: nonEmpty}
	arr := schemaProp{Type: "array", Items: &schemaProp{Type: "string"}, MinItems: nonEmpty}
	switch f.kind {
	case kindString:
		p.Type, p.MinLength = str.Type, str.MinLength
	case kindBool:
		p.Type = "boolean"
	case kindNumber:
		p.Type = "number"
	case kindInteger:
		p.Type = "integer"
	case kindStrings:
		p.Type, p.Items, p.MinItems = arr.Type, arr.Items, arr.MinItems
	case kindOneOrMany:
		p.AnyOf = []schemaProp{str, arr}
	}
	return p
}
