package ccs

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// The text of a command is never stored: records and requests hold a keyed
// hash of it (HMAC-SHA256), so that identical texts still match within one
// installation while a short secret that redaction took out of the stored
// text cannot be found again by hashing guesses. The key is random, made
// on first use, and kept beside the journal.
const (
	keyName = "hmac.key"
	keySize = 32
)

// Sum returns the keyed hash of text, in hex, as records and requests hold
// it. The key is read (or made) on the first call and kept for the life of
// the Store: a run of guard pays for it once, and only when it writes.
func (s *Store) Sum(text string) (string, error) {
	key, err := s.hmacKey()
	if err != nil {
		return "", fmt.Errorf("hash command text: %w", err)
	}
	sum := hmacSHA256(key, []byte(text))
	return hex.EncodeToString(sum[:]), nil
}

// hmacSHA256 is HMAC (RFC 2104) over SHA-256, for keys of at most one
// block (guard's is 32 bytes). crypto/hmac gives the same bytes (the tests
// compare them) but links SHA-3 in for FIPS checks, whose package init
// every guard run would pay for.
func hmacSHA256(key, msg []byte) [sha256.Size]byte {
	var ipad, opad [sha256.BlockSize]byte
	if len(key) > sha256.BlockSize {
		k := sha256.Sum256(key)
		key = k[:]
	}
	copy(ipad[:], key)
	copy(opad[:], key)
	for i := range ipad {
		ipad[i] ^= 0x36
		opad[i] ^= 0x5c
	}
	inner := sha256.New()
	inner.Write(ipad[:])
	inner.Write(msg)
	outer := sha256.New()
	outer.Write(opad[:])
	outer.Write(inner.Sum(nil))
	var sum [sha256.Size]byte
	outer.Sum(sum[:0])
	return sum
}

func (s *Store) hmacKey() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	key, err := readKey(s.path(keyName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		key, err = s.makeKey()
	case err != nil:
		if derr := s.ensureDir(); derr != nil {
			err = derr // the state directory itself is the problem: say so
		}
	}
	if err != nil {
		return nil, err
	}
	s.key = key
	return key, nil
}

// readKey reads the key through a bare descriptor opened without blocking
// (a FIFO planted at the path must not hang guard) and without following a
// symbolic link, and only from a regular file of exactly keySize bytes.
func readKey(path string) ([]byte, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link, not guard's key; remove it", path)
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, fmt.Errorf("%s is not a regular file; remove it", path)
	}
	if st.Size != keySize {
		return nil, fmt.Errorf("%s is damaged (%d bytes, not %d); remove it", path, st.Size, keySize)
	}
	key := make([]byte, keySize)
	n := 0
	for n < keySize {
		var m int
		err := retryEINTR(func() (err error) { m, err = syscall.Read(fd, key[n:]); return err })
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			return nil, fmt.Errorf("%s is damaged (short read); remove it", path)
		}
		n += m
	}
	return key, nil
}

// makeKey writes a new random key to a temporary file made with O_EXCL
// (mode 0600), syncs it and links it into place: link(2) fails if another
// guard made the key first, and then that key is read instead. A reader
// never sees a half-written key.
func (s *Store) makeKey() ([]byte, error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make key: %w", err)
	}
	path := s.path(keyName)
	suffix := make([]byte, 8)
	if _, err := rand.Read(suffix); err != nil {
		return nil, fmt.Errorf("make key: %w", err)
	}
	tmp := s.path(".tmp-" + keyName + "-" + hex.EncodeToString(suffix))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("make key: %w", inDir(s.dir, err))
	}
	defer os.Remove(tmp)
	_, err = f.Write(key)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("make key: %w", inDir(s.dir, err))
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(path) // another guard was first
		}
		return nil, fmt.Errorf("make key: %w", inDir(s.dir, err))
	}
	return key, nil
}
