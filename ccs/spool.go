package ccs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// The spool: every captured run is appended by the lean guard to one file,
// spool.log in the cache directory, with one write(2) on an O_APPEND
// descriptor under a shared flock on spool.lock; guard-cli imports it into
// context.db, renaming it away under the exclusive lock first. A record is
//
//	"GRUN" | 8-byte big-endian length | 4-byte CRC-32 (IEEE) | run file bytes
//
// A record cut short (a full disk, a crash) fails its length or checksum
// and the reader looks for the next "GRUN" after it.

const (
	spoolName     = "spool.log"
	spoolLockName = "spool.lock"
	spoolMagic    = "GRUN"
	spoolHeadLen  = 16
	// maxSpoolRecord bounds one record, so a damaged length cannot make
	// the importer allocate without end (MaxCapture plus the header).
	maxSpoolRecord = MaxCapture + maxRunHeader + 1<<20
)

// spoolRecord returns r as one spool record, in pieces: the record head,
// the run's header, then its chunks' bytes (not copied).
func spoolRecord(r *Run) [][]byte {
	var b bytes.Buffer
	b.Write(make([]byte, spoolHeadLen))
	r.encodeHeader(&b)
	head := b.Bytes()
	crc := crcUpdate(0, head[spoolHeadLen:])
	n := len(head) - spoolHeadLen
	pieces := [][]byte{head}
	for _, c := range r.Chunks {
		crc = crcUpdate(crc, c.Data)
		n += len(c.Data)
		pieces = append(pieces, c.Data)
	}
	copy(head, spoolMagic)
	binary.BigEndian.PutUint64(head[4:12], uint64(n))
	binary.BigEndian.PutUint32(head[12:16], crc)
	return pieces
}

// encodeSpoolRecord is spoolRecord in one buffer.
func encodeSpoolRecord(r *Run) []byte {
	return bytes.Join(spoolRecord(r), nil)
}

// smallRecord is the size up to which a record is written with one
// write(2) of one buffer; a bigger one is written in pieces under the
// exclusive lock, so that no other record lands inside it.
const smallRecord = 1 << 20

// appendSpool appends r to the spool in dir. It returns the spool's size
// after the write, for the import trigger.
func appendSpool(dir string, r *Run) (int64, error) {
	pieces := spoolRecord(r)
	size := 0
	for _, p := range pieces {
		size += len(p)
	}
	how := syscall.LOCK_SH
	if size > smallRecord {
		how = syscall.LOCK_EX
	} else if len(pieces) > 1 {
		pieces = [][]byte{bytes.Join(pieces, nil)}
	}
	lock, err := openFD(dir+"/"+spoolLockName, syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return 0, explainFS(err)
	}
	defer closeFD(lock)
	// Shared for one write: appenders never wait for each other, only for
	// an import's rename, which holds it for microseconds. Past the bound
	// the record is appended anyway (nothing is lost: a rename keeps the
	// inode; a big record could then interleave, and the reader skips it).
	_ = flockWait(lock, how, lockWait)
	fd, err := openFD(dir+"/"+spoolName, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_APPEND)
	if err != nil {
		return 0, explainFS(err)
	}
	defer closeFD(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return 0, notRegular(dir+"/"+spoolName, st.Mode)
	}
	for _, p := range pieces {
		if _, err := fdWriter(fd).Write(p); err != nil {
			return 0, explainFS(&fs.PathError{Op: "write", Path: dir + "/" + spoolName, Err: err})
		}
	}
	return st.Size + int64(size), nil
}

// readSpool calls fn for every whole record in the file at path, in
// order. A record that fails its length or checksum is skipped by looking
// for the next magic after its start.
func readSpool(path string, fn func(*Run) error) error {
	f, err := openRegular(path, syscall.O_RDONLY)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("read spool: %w", err)
	}
	magic := []byte(spoolMagic)
	for i := 0; i+spoolHeadLen <= len(data); {
		if !bytes.Equal(data[i:i+4], magic) {
			j := bytes.Index(data[i+1:], magic)
			if j < 0 {
				break
			}
			i += 1 + j
			continue
		}
		n := binary.BigEndian.Uint64(data[i+4 : i+12])
		end := uint64(i+spoolHeadLen) + n
		if n > maxSpoolRecord || end > uint64(len(data)) ||
			crcUpdate(0, data[i+spoolHeadLen:end]) != binary.BigEndian.Uint32(data[i+12:i+16]) {
			i++ // cut short or damaged: the next record starts later
			continue
		}
		if r, err := parseRun(data[i+spoolHeadLen : end]); err == nil {
			if err := fn(r); err != nil {
				return err
			}
		}
		i = int(end)
	}
	return nil
}

// parseRun reads a run from its file bytes.
func parseRun(b []byte) (*Run, error) {
	br := bufio.NewReader(bytes.NewReader(b))
	r, lens, err := readRunHeader(br)
	if err != nil {
		return nil, err
	}
	for _, l := range lens {
		d := make([]byte, l.n)
		if _, err := io.ReadFull(br, d); err != nil {
			return nil, errBadRun
		}
		r.Chunks = append(r.Chunks, Chunk{Stream: l.stream, Data: d})
	}
	return r, nil
}

// takeSpool moves the spool aside for import (under the exclusive lock, so
// that no appender is between its open and its write) and returns the
// name it has now, or "" when there is nothing to import. A spool moved
// aside by an import that did not finish is taken first.
func takeSpool(dir string) (string, error) {
	aside := dir + "/" + spoolName + ".import"
	if _, err := os.Stat(aside); err == nil {
		return aside, nil
	}
	lock, err := flockFile(dir+"/"+spoolLockName, "spool", syscall.LOCK_EX)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := os.Rename(dir+"/"+spoolName, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", fmt.Errorf("move the spool aside: %w", explainFS(err))
	}
	return aside, nil
}
