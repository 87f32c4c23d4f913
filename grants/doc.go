// Package grants turns an Analysis and the user's settings into a Verdict.
package grants
