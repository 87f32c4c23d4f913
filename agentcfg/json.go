package agentcfg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxFileBytes bounds what agentcfg reads: agent settings files are small,
// and a huge one is not a settings file.
const MaxFileBytes = 4 << 20

// Object is a JSON object that keeps its keys in file order.
type Object struct {
	Keys []string
	Vals map[string]any
	// raw is the object's text in the file while it is unchanged: written
	// back as it was, so an edit does not reformat what it did not touch.
	raw []byte
}

// Array is a JSON array. A Go []any is accepted wherever a value is built.
type Array struct {
	Elems []any
	raw   []byte // as Object.raw
}

// Obj builds an Object from key, value pairs, in that order.
func Obj(kv ...any) *Object {
	o := &Object{Vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Put(kv[i].(string), kv[i+1])
	}
	return o
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.Vals[key]
	return v, ok
}

// Put sets key, keeping its place if it exists and appending it if not.
func (o *Object) Put(key string, v any) {
	o.raw = nil
	if _, ok := o.Vals[key]; !ok {
		o.Keys = append(o.Keys, key)
	}
	o.Vals[key] = v
}

// Del removes key.
func (o *Object) Del(key string) {
	if _, ok := o.Vals[key]; !ok {
		return
	}
	o.raw = nil
	delete(o.Vals, key)
	for i, k := range o.Keys {
		if k == key {
			o.Keys = append(o.Keys[:i:i], o.Keys[i+1:]...)
			break
		}
	}
}

// Doc is a JSON settings file: an object at the root, with the file's
// indentation remembered so that a rewrite changes only what was edited.
type Doc struct {
	Root   *Object
	indent string
	orig   []byte
}

// ParseJSON reads a settings file. Empty input is an empty object. The
// root must be an object; duplicate keys keep the last value, as
// JavaScript's JSON.parse does.
func ParseJSON(data []byte) (*Doc, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("file is %d bytes, over the %d byte limit for a settings file", len(data), MaxFileBytes)
	}
	d := &Doc{indent: detectIndent(data), orig: data}
	if len(bytes.TrimSpace(data)) == 0 {
		d.Root = Obj()
		return d, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, data)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("data after the top-level value")
		}
	}
	if err != nil {
		return nil, jsonError(data, dec.InputOffset(), err)
	}
	root, ok := v.(*Object)
	if !ok {
		return nil, errors.New("the top level is not a JSON object")
	}
	d.Root = root
	return d, nil
}

// jsonError names the line and column, never the text there (it could be
// a secret), and says plainly why a file with comments is refused.
func jsonError(data []byte, off int64, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	off = min(max(off, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	msg := "not valid JSON"
	if hasComment(data) {
		msg += " (it has comments; guard does not rewrite a JSONC file, so as not to lose them)"
	}
	return fmt.Errorf("%d:%d: %s", line, col, msg)
}

// hasComment reports a // or /* outside a string.
func hasComment(data []byte) bool {
	in, esc := false, false
	for i := 0; i+1 < len(data); i++ {
		c := data[i]
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && c == '/' && (data[i+1] == '/' || data[i+1] == '*'):
			return true
		}
	}
	return false
}

// decodeValue reads one value. With src, containers remember their text.
func decodeValue(dec *json.Decoder, src []byte) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	start := dec.InputOffset() - 1
	span := func() []byte {
		if src == nil {
			return nil
		}
		return src[start:dec.InputOffset()]
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := Obj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := decodeValue(dec, src)
				if err != nil {
					return nil, err
				}
				o.Put(k, v)
			}
			_, err := dec.Token()
			o.raw = span()
			return o, err
		case '[':
			a := &Array{Elems: []any{}}
			for dec.More() {
				v, err := decodeValue(dec, src)
				if err != nil {
					return nil, err
				}
				a.Elems = append(a.Elems, v)
			}
			_, err := dec.Token()
			a.raw = span()
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // string, json.Number, bool, nil
	}
}

// detectIndent returns the whitespace of the first indented line, or two
// spaces.
func detectIndent(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)]
		}
	}
	return "  "
}

// Bytes writes the document with the file's indentation and a final newline.
func (d *Doc) Bytes() []byte {
	if d.Root.raw != nil && d.orig != nil {
		return d.orig // untouched: byte for byte
	}
	var b bytes.Buffer
	encode(&b, d.Root, d.indent, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

// Canonical is the compact encoding of v, used to compare values.
func Canonical(v any) string {
	var b bytes.Buffer
	encode(&b, v, "", 0)
	return b.String()
}

func encode(b *bytes.Buffer, v any, indent string, depth int) {
	nl := func(d int) {
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(indent, d))
		}
	}
	switch v := v.(type) {
	case *Object:
		if v.raw != nil && indent != "" {
			b.Write(v.raw)
			return
		}
		if len(v.Keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			encodeString(b, k)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			encode(b, v.Vals[k], indent, depth+1)
		}
		nl(depth)
		b.WriteByte('}')
	case *Array:
		if v.raw != nil && indent != "" {
			b.Write(v.raw)
			return
		}
		encode(b, v.Elems, indent, depth)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			encode(b, e, indent, depth+1)
		}
		nl(depth)
		b.WriteByte(']')
	case string:
		encodeString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	case int:
		fmt.Fprintf(b, "%d", v)
	default:
		panic(fmt.Sprintf("agentcfg: cannot encode %T", v))
	}
}

func encodeString(b *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimRight(tmp.Bytes(), "\n"))
}

// Get returns the value at path.
func (d *Doc) Get(path ...string) (any, bool) {
	var cur any = d.Root
	for _, k := range path {
		o, ok := cur.(*Object)
		if !ok {
			return nil, false
		}
		if cur, ok = o.Get(k); !ok {
			return nil, false
		}
	}
	return cur, true
}

// Change is one edit of a JSON document, with what undoing it needs. It is
// stored in guard's install record, so its fields are JSON.
type Change struct {
	Op    string          `json:"op"` // "set" or "append"
	Path  []string        `json:"path"`
	Value json.RawMessage `json:"value"`          // what the edit wrote
	Prev  json.RawMessage `json:"prev,omitempty"` // set: the value it replaced; absent if none
	// Created is the length of the shortest path prefix that the edit had
	// to create as an empty object (or, for append, array); 0 if none.
	Created int `json:"created,omitempty"`
}

// container walks to the object holding path's last key, creating empty
// objects where keys are missing. It reports the shortest created prefix.
func (d *Doc) container(path []string) (*Object, int, error) {
	o, created := d.Root, 0
	o.raw = nil
	for i, k := range path[:len(path)-1] {
		v, ok := o.Get(k)
		if !ok {
			n := Obj()
			o.Put(k, n)
			if created == 0 {
				created = i + 1
			}
			v = n
		}
		next, ok := v.(*Object)
		if !ok {
			return nil, 0, fmt.Errorf("%s is not an object", strings.Join(path[:i+1], "."))
		}
		o = next
		o.raw = nil
	}
	return o, created, nil
}

// Set puts v at path. It reports changed = false, and no Change, when the
// value was already there: guard did not add it, so undoing must not
// remove it.
func (d *Doc) Set(path []string, v any) (Change, bool, error) {
	if cur, ok := d.Get(path...); ok && Canonical(cur) == Canonical(v) {
		return Change{}, false, nil
	}
	o, created, err := d.container(path)
	if err != nil {
		return Change{}, false, err
	}
	c := Change{Op: "set", Path: path, Value: json.RawMessage(Canonical(v)), Created: created}
	if prev, ok := o.Get(path[len(path)-1]); ok {
		c.Prev = json.RawMessage(Canonical(prev))
	}
	o.Put(path[len(path)-1], v)
	return c, true, nil
}

// Append adds v to the array at path (creating it) unless an equal
// element is there already.
func (d *Doc) Append(path []string, v any) (Change, bool, error) {
	o, created, err := d.container(path)
	if err != nil {
		return Change{}, false, err
	}
	key := path[len(path)-1]
	cur, ok := o.Get(key)
	if !ok {
		cur = &Array{Elems: []any{}}
		if created == 0 {
			created = len(path)
		}
	}
	arr := asArray(cur)
	if arr == nil {
		return Change{}, false, fmt.Errorf("%s is not an array", strings.Join(path, "."))
	}
	want := Canonical(v)
	for _, e := range arr.Elems {
		if Canonical(e) == want {
			return Change{}, false, nil
		}
	}
	arr.Elems = append(arr.Elems, v)
	arr.raw = nil
	o.Put(key, arr)
	return Change{Op: "append", Path: path, Value: json.RawMessage(want), Created: created}, true, nil
}

// Undo reverts c where the document still holds what c wrote, and removes
// the containers c created once they are empty again. It reports whether
// anything changed.
func (d *Doc) Undo(c Change) (bool, error) {
	if len(c.Path) == 0 {
		return false, errors.New("change without a path")
	}
	parent, ok := d.Get(c.Path[:len(c.Path)-1]...)
	o, isObj := parent.(*Object)
	if !ok || !isObj {
		return false, nil
	}
	key := c.Path[len(c.Path)-1]
	cur, ok := o.Get(key)
	if !ok {
		return false, nil
	}
	value, err := ParseValue(c.Value)
	if err != nil {
		return false, fmt.Errorf("recorded value: %w", err)
	}
	want := Canonical(value)
	changed := false
	switch c.Op {
	case "set":
		if Canonical(cur) != want {
			return false, nil // the user changed it since: theirs now
		}
		if c.Prev != nil {
			prev, err := ParseValue(c.Prev)
			if err != nil {
				return false, err
			}
			o.Put(key, prev)
		} else {
			o.Del(key)
		}
		changed = true
	case "append":
		arr := asArray(cur)
		if arr == nil {
			return false, nil
		}
		for i := len(arr.Elems) - 1; i >= 0; i-- {
			if Canonical(arr.Elems[i]) == want {
				arr.Elems = append(arr.Elems[:i:i], arr.Elems[i+1:]...)
				arr.raw = nil
				o.Put(key, arr)
				changed = true
				break
			}
		}
	default:
		return false, fmt.Errorf("unknown change %q", c.Op)
	}
	if changed {
		d.touch(c.Path)
		if c.Created > 0 {
			d.prune(c.Path, c.Created)
		}
	}
	return changed, nil
}

// touch marks the containers along path as changed.
func (d *Doc) touch(path []string) {
	var cur any = d.Root
	for i := 0; ; i++ {
		switch v := cur.(type) {
		case *Object:
			v.raw = nil
			if i == len(path) {
				return
			}
			next, ok := v.Get(path[i])
			if !ok {
				return
			}
			cur = next
		case *Array:
			v.raw = nil
			return
		default:
			return
		}
	}
}

// asArray returns v as an *Array, converting a built []any.
func asArray(v any) *Array {
	switch v := v.(type) {
	case *Array:
		return v
	case []any:
		return &Array{Elems: v}
	}
	return nil
}

// prune removes empty containers along path, deepest first, down to the
// prefix of length from.
func (d *Doc) prune(path []string, from int) {
	for l := len(path); l >= from; l-- {
		v, ok := d.Get(path[:l]...)
		if !ok {
			continue
		}
		empty := false
		switch v := v.(type) {
		case *Object:
			empty = len(v.Keys) == 0
		case *Array:
			empty = len(v.Elems) == 0
		case []any:
			empty = len(v) == 0
		}
		if !empty || l == 0 {
			return
		}
		if p, ok := d.Get(path[:l-1]...); ok {
			if po, ok := p.(*Object); ok {
				po.Del(path[l-1])
			}
		}
	}
}

// ParseValue decodes one JSON value into agentcfg's tree, to be written
// out afresh (it keeps no text of its own).
func ParseValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return decodeValue(dec, nil)
}
