package ccs

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Run files: one captured run, as the lean guard writes it (no SQLite) and
// guard-cli imports it. The layout is
//
//	guard-run 1\n
//	KEY VALUE\n …   (the header; strings in Go quoting)
//	\n
//	N × (1 byte stream '1' or '2', 4 bytes big-endian length)   the chunks, in order
//	the chunks' bytes, concatenated
//
// Every byte of output in a run file has been redacted (Capture); a run
// whose redaction changed anything says so (Redacted) and is never served.
const runMagic = "guard-run 1\n"

// Streams of a chunk.
const (
	Stdout = 1
	Stderr = 2
)

// A Chunk is one piece of a run's output, on one stream.
type Chunk struct {
	Stream int
	Data   []byte
}

// A Run is one captured run of a command: its record and its output.
type Run struct {
	ID         string
	Time       time.Time // start, UTC
	Agent      string
	Cwd        string
	Root       string // project root
	Command    string // redacted
	Exit       int
	DurationMS int64
	// Key is the cache key (hex) when a [[cache]] rule covered the run and
	// the key could be made; "" otherwise.
	Key           string
	Rule          string        // the [[cache]] rule's match pattern
	TTL, Stale    time.Duration // the rule's, when Key is set
	CacheFailures time.Duration
	Redacted      bool // redaction changed the output: kept for the record, never served
	// Uncached says why a run a [[cache]] rule matched is not in the cache
	// (a fresh-run flag, a link to a fifo, too many files…): what guard
	// context show prints. "" otherwise.
	Uncached string
	// Racy: the files whose content the key stands for; the entry answers
	// only while they still hold it (Racy.Holds).
	Racy      Racy
	Truncated bool  // output past the capture limit was passed on but not kept
	Bytes     int64 // output bytes kept
	Chunks    []Chunk
}

// Servable reports whether the run may answer a later run with the same
// key at now: whole, unredacted, within its ttl, and exit 0 unless the
// rule caches failures (for cache_failures).
func (r *Run) Servable(now time.Time) bool {
	if r.Key == "" || r.Redacted || r.Truncated {
		return false
	}
	age := now.Sub(r.Time)
	if age < 0 {
		return false
	}
	if r.Exit != 0 {
		return r.CacheFailures > 0 && age < min(r.CacheFailures, r.TTL)
	}
	return age < r.TTL
}

// headerFields are the header's keys, in the order they are written.
var headerFields = []string{"id", "time", "agent", "cwd", "root", "command", "exit", "duration_ms", "key", "rule",
	"ttl", "stale", "cache_failures", "redacted", "truncated", "bytes", "uncached", "racy", "racy_sum"}

func (r *Run) field(k string) string {
	switch k {
	case "id":
		return r.ID
	case "time":
		return strconv.FormatInt(r.Time.UnixNano(), 10)
	case "agent":
		return r.Agent
	case "cwd":
		return r.Cwd
	case "root":
		return r.Root
	case "command":
		return r.Command
	case "exit":
		return strconv.Itoa(r.Exit)
	case "duration_ms":
		return strconv.FormatInt(r.DurationMS, 10)
	case "key":
		return r.Key
	case "rule":
		return r.Rule
	case "ttl":
		return strconv.FormatInt(int64(r.TTL), 10)
	case "stale":
		return strconv.FormatInt(int64(r.Stale), 10)
	case "cache_failures":
		return strconv.FormatInt(int64(r.CacheFailures), 10)
	case "redacted":
		return strconv.FormatBool(r.Redacted)
	case "truncated":
		return strconv.FormatBool(r.Truncated)
	case "bytes":
		return strconv.FormatInt(r.Bytes, 10)
	case "uncached":
		return r.Uncached
	case "racy":
		return strings.Join(r.Racy.Paths, "\x00")
	case "racy_sum":
		return r.Racy.Sum
	}
	return ""
}

func (r *Run) setField(k, v string) error {
	var err error
	num := func() int64 {
		n, e := strconv.ParseInt(v, 10, 64)
		if e != nil {
			err = e
		}
		return n
	}
	switch k {
	case "id":
		r.ID = v
	case "time":
		r.Time = time.Unix(0, num()).UTC()
	case "agent":
		r.Agent = v
	case "cwd":
		r.Cwd = v
	case "root":
		r.Root = v
	case "command":
		r.Command = v
	case "exit":
		r.Exit = int(num())
	case "duration_ms":
		r.DurationMS = num()
	case "key":
		r.Key = v
	case "rule":
		r.Rule = v
	case "ttl":
		r.TTL = time.Duration(num())
	case "stale":
		r.Stale = time.Duration(num())
	case "cache_failures":
		r.CacheFailures = time.Duration(num())
	case "redacted":
		r.Redacted = v == "true"
	case "truncated":
		r.Truncated = v == "true"
	case "bytes":
		r.Bytes = num()
	case "uncached":
		r.Uncached = v
	case "racy":
		r.Racy.Paths = nil
		if v != "" {
			r.Racy.Paths = strings.Split(v, "\x00")
		}
	case "racy_sum":
		r.Racy.Sum = v
	}
	return err
}

// encodeHeader writes the header and chunk index of r.
func (r *Run) encodeHeader(b *bytes.Buffer) {
	b.WriteString(runMagic)
	for _, k := range headerFields {
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(r.field(k)))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	var rec [5]byte
	for _, c := range r.Chunks {
		rec[0] = byte('0' + c.Stream)
		binary.BigEndian.PutUint32(rec[1:], uint32(len(c.Data)))
		b.Write(rec[:])
	}
}

// newRunID returns a fresh run id: the time, so ids sort by age, and
// random bits, so concurrent guards never collide.
func newRunID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(now.UnixNano(), 36) + hex.EncodeToString(b[:])
}

// writeRunFile writes r to path atomically (a temporary file in the same
// directory, then rename), mode 0600. No fsync: a run lost to a crash is
// a cache miss, never a wrong answer.
func writeRunFile(path string, r *Run) error {
	var hdr bytes.Buffer
	r.encodeHeader(&hdr)
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
	fd, err := openFD(tmp, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC)
	if err != nil {
		return explainFS(err)
	}
	// a bare descriptor: os.NewFile would set up the runtime's poller
	w := bufio.NewWriterSize(fdWriter(fd), 64<<10)
	_, err = w.Write(hdr.Bytes())
	for _, c := range r.Chunks {
		if err == nil {
			_, err = w.Write(c.Data)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		err = &fs.PathError{Op: "write", Path: tmp, Err: err}
	}
	if err == nil {
		// (os.Rename would lstat the target first: one more call per command)
		if rerr := syscall.Rename(tmp, path); rerr != nil {
			err = &os.LinkError{Op: "rename", Old: tmp, New: path, Err: rerr}
		}
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write run %s: %w", filepath.Base(path), explainFS(err))
	}
	return nil
}

// fdWriter writes to a bare descriptor, whole buffers, retrying EINTR.
type fdWriter int

func (fd fdWriter) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := syscall.Write(int(fd), p[n:])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}

// maxRunHeader bounds a run file's header, so that a damaged file cannot
// make guard read without end.
const maxRunHeader = 1 << 20

// errBadRun says a run file is damaged.
var errBadRun = errors.New("damaged run file")

// ReadRunFile reads a run file; with withOutput false only its header.
func ReadRunFile(path string, withOutput bool) (*Run, error) {
	f, err := openRegular(path, syscall.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	r, lens, err := readRunHeader(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !withOutput {
		r.Chunks = make([]Chunk, len(lens))
		for i, l := range lens {
			r.Chunks[i] = Chunk{Stream: l.stream}
		}
		return r, nil
	}
	for _, l := range lens {
		d := make([]byte, l.n)
		if _, err := io.ReadFull(br, d); err != nil {
			return nil, fmt.Errorf("%s: %w: output cut short", path, errBadRun)
		}
		r.Chunks = append(r.Chunks, Chunk{Stream: l.stream, Data: d})
	}
	return r, nil
}

type chunkLen struct {
	stream int
	n      int
}

func readRunHeader(br *bufio.Reader) (*Run, []chunkLen, error) {
	magic := make([]byte, len(runMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != runMagic {
		return nil, nil, errBadRun
	}
	r := &Run{}
	read := len(runMagic)
	for {
		line, err := br.ReadString('\n')
		read += len(line)
		if err != nil || read > maxRunHeader {
			return nil, nil, errBadRun
		}
		if line == "\n" {
			break
		}
		k, v, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok {
			return nil, nil, errBadRun
		}
		uv, err := strconv.Unquote(v)
		if err != nil {
			return nil, nil, errBadRun
		}
		if err := r.setField(k, uv); err != nil {
			return nil, nil, errBadRun
		}
	}
	var lens []chunkLen
	var total int64
	var rec [5]byte
	for total < r.Bytes {
		if _, err := io.ReadFull(br, rec[:]); err != nil || (rec[0] != '1' && rec[0] != '2') {
			return nil, nil, errBadRun
		}
		n := int(binary.BigEndian.Uint32(rec[1:]))
		total += int64(n)
		if n == 0 || total > r.Bytes {
			return nil, nil, errBadRun
		}
		lens = append(lens, chunkLen{int(rec[0] - '0'), n})
	}
	return r, lens, nil
}
