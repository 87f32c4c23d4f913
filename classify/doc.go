// Package classify turns a command text into an Analysis.
package classify
