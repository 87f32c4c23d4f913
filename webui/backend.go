package webui

import "time"

// Backend is what the page shows and changes: guard-cli's own stores,
// reached the way the CLI reaches them. Every text it returns is redacted
// already; the page escapes what it shows.
type Backend interface {
	// Pending lists the requests that wait for an answer, oldest first.
	Pending() ([]Request, error)
	// Answer answers one; a deny may carry a message for the agent.
	Answer(id string, a Answer) error
	// Reveal returns a request's full text, unredacted, when guard ui has
	// it (from the guard that waits); an error says why not.
	Reveal(id string) (string, error)

	// Audit lists records, newest first; Explain traces one.
	Audit(f AuditFilter) ([]AuditRecord, error)
	Explain(id int64) (string, error)

	// Grants lists the rules of the global and project grants files.
	Grants() ([]Grant, error)
	// Preview tells what a pattern would have allowed in the audit.
	Preview(pattern string) (Preview, error)
	AddGrant(g GrantChange) error
	RemoveGrant(g GrantChange) error

	// Context lists the context store's entries; ContextShow shows one's
	// output; ContextClear removes one ("" for all) and says how many went.
	Context() ([]ContextEntry, error)
	ContextShow(id string) (string, error)
	ContextClear(id string) (int, error)

	// Charts counts decisions per day and the commands asked most.
	Charts(days int) (Charts, error)
}

// A Request is one pending approval.
type Request struct {
	ID       string    `json:"id"`
	Time     time.Time `json:"time"`
	Command  string    `json:"command"` // redacted
	Cwd      string    `json:"cwd"`
	Project  string    `json:"project"`
	Agent    string    `json:"agent"`
	Risk     string    `json:"risk"`
	Rule     string    `json:"rule"`
	Reason   string    `json:"reason"`
	Suggest  string    `json:"suggest"`
	OnceOnly bool      `json:"once_only"`
	Waiting  bool      `json:"waiting"`    // a guard waits for the answer now
	Revealed bool      `json:"revealable"` // Reveal can show the full text
}

// Answers to a request: the prompt's.
const (
	AnswerOnce    = "once"
	AnswerProject = "project"
	AnswerGlobal  = "global"
	AnswerDeny    = "deny"
)

// An Answer to a request. Pattern is the grant for project and global
// (the suggestion, or the human's edit of it); Message, for a deny, goes to
// the agent in its refusal line.
type Answer struct {
	Kind    string `json:"kind"`
	Pattern string `json:"pattern,omitempty"`
	For     string `json:"for,omitempty"` // an expiring grant: "2h"
	Message string `json:"message,omitempty"`
}

// AuditFilter selects audit records; zero fields select all.
type AuditFilter struct {
	Decision string    `json:"decision"`
	Agent    string    `json:"agent"`
	Project  string    `json:"project"` // a prefix of the record's directory
	Rule     string    `json:"rule"`
	Since    time.Time `json:"since"`
	Until    time.Time `json:"until"`
	Limit    int       `json:"limit"`
}

// An AuditRecord is one decision as the page lists it.
type AuditRecord struct {
	ID       int64     `json:"id"`
	Time     time.Time `json:"time"`
	Agent    string    `json:"agent"`
	Cwd      string    `json:"cwd"`
	Command  string    `json:"command"`
	Decision string    `json:"decision"`
	Rule     string    `json:"rule"`
	Answer   string    `json:"answer"`
	Via      string    `json:"via"`
	Exit     int       `json:"exit"`
	Risk     string    `json:"risk"`
}

// A Grant is one rule of a grants file.
type Grant struct {
	Kind    string    `json:"kind"` // allow | ask | deny
	Pattern string    `json:"pattern"`
	Scope   string    `json:"scope"`   // global | project
	Project string    `json:"project"` // the project root, for project grants
	File    string    `json:"file"`
	Expires time.Time `json:"expires,omitzero"`
	Expired bool      `json:"expired"`
}

// A GrantChange adds or removes one rule. Project names the project root
// of a project grant.
type GrantChange struct {
	Kind    string `json:"kind"`
	Pattern string `json:"pattern"`
	Scope   string `json:"scope"`
	Project string `json:"project"`
	For     string `json:"for,omitempty"`
}

// A Preview is what a pattern would have covered in the audit.
type Preview struct {
	Pattern  string   `json:"pattern"`
	Matched  int      `json:"matched"`  // past commands it covers
	Examples []string `json:"examples"` // some of them, newest first
	// Refused is why the pattern may not be saved: it covers a past
	// command that the built-in denylist or a deny rule refused.
	Refused string `json:"refused,omitempty"`
	Note    string `json:"note,omitempty"`
}

// A ContextEntry is one run kept in the context store.
type ContextEntry struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Command string    `json:"command"`
	Cwd     string    `json:"cwd"`
	Bytes   int64     `json:"bytes"`
	Hits    int64     `json:"hits"`
	Exit    int       `json:"exit"`
}

// Charts are the page's pictures: decisions per day by kind, and the
// commands asked most, each with the grant that would stop the asking.
type Charts struct {
	Days []DayCount `json:"days"`
	Top  []TopAsked `json:"top"`
}

// A DayCount is one day's decisions.
type DayCount struct {
	Day   string `json:"day"` // 2006-01-02, local time
	Allow int    `json:"allow"`
	Ask   int    `json:"ask"`
	Deny  int    `json:"deny"`
}

// A TopAsked is a command that was asked about, how often, and the grant
// guard suggests for it ("" when none is safe).
type TopAsked struct {
	Command string `json:"command"`
	Count   int    `json:"count"`
	Suggest string `json:"suggest"`
}
