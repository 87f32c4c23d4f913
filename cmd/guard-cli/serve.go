package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
)

// The decision API: guard serve answers POST /v1/decide with the same JSON
// as guard check --json, for integrations that prefer a socket to a
// process. It only decides: nothing it answers writes a grant, approves a
// request or runs a command, and no other route exists.
const (
	maxDecideBody     = 64 << 10 // bytes of a request body; more is 413
	serveReadTimeout  = 10 * time.Second
	serveWriteTimeout = 10 * time.Second
	serveIdleTimeout  = 60 * time.Second
)

func (a *App) serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "answer decisions over a local socket (POST /v1/decide)",
		UsageText: `guard serve --listen unix:PATH|127.0.0.1:PORT

Serves POST /v1/decide: the body is {"command": "…", "cwd": "/abs/dir",
"agent": "name"} (agent optional) with Content-Type: application/json, and the
answer is the object guard check --json prints (fields: docs/formats.md).
Listens only on a Unix socket (made 0600) or a loopback address; a body
over 64 KiB is refused (413). Nothing served writes grants or runs commands.
Prints the address it listens on, and stops on SIGINT or SIGTERM.

example:
   guard serve --listen unix:$XDG_RUNTIME_DIR/guard.sock
   guard serve --listen 127.0.0.1:0`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Usage: "`ADDR`: unix:PATH, or a loopback IP:PORT (port 0 picks one)", Required: true},
		},
		Action: a.serve,
	}
}

func (a *App) serve(c *cli.Context) error {
	if c.Args().Present() {
		return usageError("serve takes no arguments")
	}
	ln, cleanup, err := a.listen(c.String("listen"))
	if err != nil {
		return err
	}
	defer cleanup()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(a.Stdout, "listening on %s\n", listenName(ln))
	go a.flushTelemetryEvery(ctx) // [telemetry]: the flusher, every minute
	if err := a.serveOn(ctx, ln); err != nil {
		return failure(err, "")
	}
	return nil
}

func listenName(ln net.Listener) string {
	if ln.Addr().Network() == "unix" {
		return "unix:" + ln.Addr().String()
	}
	return ln.Addr().String()
}

// listen opens ADDR: unix:PATH, or a loopback IP:PORT. Anything else is
// refused: the API answers anyone who can connect.
func (a *App) listen(addr string) (net.Listener, func(), error) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		if path == "" {
			return nil, nil, usageError("--listen unix: needs a path")
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(a.Cwd, path)
		}
		return serveUnix(path)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, usageError("--listen %q: want unix:PATH or 127.0.0.1:PORT", addr)
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, nil, &cliError{code: exitUsage, kind: "error",
			msg:  fmt.Sprintf("--listen %s: guard serves only on a loopback address or a Unix socket", addr),
			hint: "use --listen 127.0.0.1:PORT or --listen unix:PATH"}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, failure(err, "")
	}
	return ln, func() { ln.Close() }, nil
}

// serveUnix makes a socket only its owner can connect to. A stale socket
// (nothing answers) is replaced; a live one, or anything else, is not.
func serveUnix(path string) (net.Listener, func(), error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, nil, failure(fmt.Errorf("%s exists and is not a socket", path), "choose another path")
		}
		if conn, err := net.DialTimeout("unix", path, time.Second); err == nil {
			conn.Close()
			return nil, nil, failure(fmt.Errorf("%s is in use by another server", path), "")
		}
		if err := os.Remove(path); err != nil {
			return nil, nil, failure(err, "")
		}
	}
	// the socket is created 0600 (umask), never briefly open to others
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, nil, failure(err, "")
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, nil, failure(err, "")
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(true)
	return ln, func() { ln.Close() }, nil
}

// serveOn answers on ln until ctx ends.
func (a *App) serveOn(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.decideHandler(),
		ReadHeaderTimeout: serveReadTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          nil,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
		return nil
	}
}

// decideRequest is the body of POST /v1/decide.
type decideRequest struct {
	Command *string `json:"command"`
	Cwd     string  `json:"cwd"`
	Agent   string  `json:"agent"`
}

var agentName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

func (a *App) decideHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/decide" {
			apiError(w, http.StatusNotFound, "not found: the only route is POST /v1/decide")
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			apiError(w, http.StatusMethodNotAllowed, "method not allowed: use POST")
			return
		}
		// A web page the user visits can reach a loopback port; it cannot
		// send application/json without a preflight this server never
		// answers, and browsers name their origin.
		if r.Header.Get("Origin") != "" {
			apiError(w, http.StatusForbidden, "requests from web pages are refused")
			return
		}
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			apiError(w, http.StatusUnsupportedMediaType, "content type must be application/json")
			return
		}
		// the whole body first: an oversized one is 413 whatever it holds
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDecideBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxDecideBody))
				return
			}
			apiError(w, http.StatusBadRequest, "could not read the request body")
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		var req decideRequest
		if err := dec.Decode(&req); err != nil {
			apiError(w, http.StatusBadRequest, "body is not a JSON object of command, cwd and agent")
			return
		}
		if dec.More() {
			apiError(w, http.StatusBadRequest, "one JSON object per request")
			return
		}
		switch {
		case req.Command == nil:
			apiError(w, http.StatusBadRequest, "command is missing")
			return
		case !filepath.IsAbs(req.Cwd):
			apiError(w, http.StatusBadRequest, "cwd must be an absolute path")
			return
		case req.Agent != "" && !agentName.MatchString(req.Agent):
			apiError(w, http.StatusBadRequest, "agent must be a short lowercase name")
			return
		}
		var out bytes.Buffer
		ck := a.newChecker(filepath.Clean(req.Cwd), req.Agent, true, &out)
		if err := ck.decide(*req.Command); err != nil {
			apiError(w, http.StatusInternalServerError, "could not decide")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(out.Bytes())
	})
}

func apiError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Write(append(b, '\n'))
}
