package webui

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"
)

// PasskeysName is the file, in guard's state directory, that holds the
// passkeys registered for this install.
const PasskeysName = "passkeys.json"

// maxPasskeysFile bounds what is read from passkeys.json.
const maxPasskeysFile = 1 << 20

// A Passkey is one registered credential, with what the page shows of it.
type Passkey struct {
	Name  string              `json:"name"`
	Added time.Time           `json:"added"`
	Cred  webauthn.Credential `json:"credential"`
}

// passkeyFile is passkeys.json: one WebAuthn user (this install) and its
// credentials.
type passkeyFile struct {
	UserID   []byte    `json:"user_id"`
	Passkeys []Passkey `json:"passkeys"`
}

// passkeys is the file, loaded, and the lock that keeps its readers and
// writers in this process apart. Another guard ui on the same state
// directory is refused (the console lock), so the process lock suffices.
type passkeys struct {
	path string
	mu   sync.Mutex
	f    passkeyFile
}

func loadPasskeys(stateDir string) (*passkeys, error) {
	pk := &passkeys{path: filepath.Join(stateDir, PasskeysName)}
	data, err := readRegular(pk.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		id := make([]byte, 32)
		if _, err := rand.Read(id); err != nil {
			return nil, fmt.Errorf("make passkey user id: %w", err)
		}
		pk.f.UserID = id
		return pk, nil
	case err != nil:
		return nil, fmt.Errorf("read passkeys: %w", err)
	}
	if err := json.Unmarshal(data, &pk.f); err != nil || len(pk.f.UserID) == 0 {
		return nil, fmt.Errorf("%s is damaged; move it aside and register a passkey again", pk.path)
	}
	return pk, nil
}

// readRegular reads a regular file of at most maxPasskeysFile bytes (a
// FIFO planted at the path must not hang guard ui).
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPasskeysFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPasskeysFile {
		return nil, fmt.Errorf("%s is longer than %d bytes", path, maxPasskeysFile)
	}
	return data, nil
}

// save writes the file atomically, 0600, in a 0700 directory.
func (pk *passkeys) save() error {
	data, err := json.MarshalIndent(pk.f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode passkeys: %w", err)
	}
	dir := filepath.Dir(pk.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save passkeys: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".passkeys-*")
	if err != nil {
		return fmt.Errorf("save passkeys: %w", err)
	}
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), pk.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save passkeys: %w", err)
	}
	return nil
}

func (pk *passkeys) count() int {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	return len(pk.f.Passkeys)
}

func (pk *passkeys) list() []Passkey {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	return append([]Passkey(nil), pk.f.Passkeys...)
}

// user is the WebAuthn user of this install, with a copy of its credentials.
func (pk *passkeys) user() *user {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	u := &user{id: pk.f.UserID}
	for _, p := range pk.f.Passkeys {
		u.creds = append(u.creds, p.Cred)
	}
	return u
}

func (pk *passkeys) add(name string, c webauthn.Credential, now time.Time) error {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	old := pk.f.Passkeys
	pk.f.Passkeys = append(append([]Passkey(nil), old...), Passkey{Name: name, Added: now, Cred: c})
	if err := pk.save(); err != nil {
		pk.f.Passkeys = old
		return err
	}
	return nil
}

// remove drops the passkey with this credential ID; the last one stays
// (without a passkey nobody could approve, nor register again without the
// terminal).
func (pk *passkeys) remove(id []byte) error {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	old := pk.f.Passkeys
	var keep []Passkey
	for _, p := range old {
		if !bytes.Equal(p.Cred.ID, id) {
			keep = append(keep, p)
		}
	}
	switch {
	case len(keep) == len(old):
		return errors.New("no such passkey")
	case len(keep) == 0:
		return errors.New("the last passkey cannot be removed: register another first")
	}
	pk.f.Passkeys = keep
	if err := pk.save(); err != nil {
		pk.f.Passkeys = old
		return err
	}
	return nil
}

// used records a credential's new sign count after an assertion.
func (pk *passkeys) used(c *webauthn.Credential) {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	for i := range pk.f.Passkeys {
		if bytes.Equal(pk.f.Passkeys[i].Cred.ID, c.ID) {
			pk.f.Passkeys[i].Cred.Authenticator = c.Authenticator
			pk.f.Passkeys[i].Cred.Flags = c.Flags
		}
	}
	_ = pk.save() // best effort: a lost count only weakens clone detection
}

// user is this install as a WebAuthn user.
type user struct {
	id    []byte
	creds []webauthn.Credential
}

func (u *user) WebAuthnID() []byte                         { return u.id }
func (u *user) WebAuthnName() string                       { return "guard" }
func (u *user) WebAuthnDisplayName() string                { return "guard on this machine" }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }
