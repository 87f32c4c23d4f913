package ccs

import "time"

// settled is a fingerprint's time past every racy window: a test that
// asserts "no change" uses it, so that a file written a moment ago is not
// hashed by content once and by metadata the next time.
func settled() time.Time { return time.Now().Add(24 * time.Hour) }

// testFP is a fingerprinter at settled() with the git bound.
func testFP(skip []string) *fingerprinter {
	return newFingerprinter(settled(), racyWindow, skip, MaxGitEntries)
}
