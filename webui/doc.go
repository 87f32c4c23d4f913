// Package webui is guard's web console, served by guard ui: pending
// approvals, the audit, grants, the context store and a few charts, in a
// browser, for a human who cannot or would rather not answer in a terminal.
//
// It is its own package, not a file of cmd/guard-cli, because it is a web
// application with its own assets (index.html, app.js, app.css, embedded
// with go:embed and written as plain JavaScript: there is no build step)
// and its own security model, which is most of its code. It keeps no store
// of its own: the stores it shows and changes are the CLI's (grants files,
// pending request files, the audit database, the context store), reached
// through the Backend that guard-cli gives it. The one file it writes is
// passkeys.json in guard's state directory (0600): the passkeys registered
// for this install.
//
// # Only a human approves
//
// An agent runs as the same user as the human and can reach any loopback
// port, so the page trusts nothing an HTTP client can send by itself:
//
//   - It listens on a loopback address only (guard ui refuses any other),
//     and answers only requests whose Host is the origin it printed
//     (http://localhost:PORT): a DNS-rebinding page gets 421.
//   - A session is a random cookie, HttpOnly and SameSite=Strict, kept in
//     memory for at most eight hours: a restart of guard ui ends them all.
//   - Every API request must carry the session's CSRF token in a header
//     and, when it has an Origin (a POST always must), the exact origin.
//   - Reading needs a session that signed in with a passkey (a WebAuthn
//     assertion with user verification). Every change (an answer, a
//     reveal, a grant, a clear, a passkey) needs a fresh assertion of its
//     own, whose challenge the server made for that one action, target and
//     set of parameters, within two minutes, once.
//   - The first passkey is registered only with a one-time code that guard
//     ui prints on the terminal it runs in, and only when guard judges that
//     terminal a human's (the same rule as guard approve and guard watch).
//     Adding or removing a passkey needs an assertion from one already
//     registered.
//
// A curl from the agent has no session; a browser the agent starts has no
// registered passkey, and its own virtual authenticator's keys are not
// this install's.
package webui
