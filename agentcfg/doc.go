// Package agentcfg edits other programs' configuration files the way a
// careful human would: it changes the few values guard needs and leaves
// everything else where it was. `guard install --agent X` uses it to wire
// guard into Claude Code, Codex, Gemini CLI, OpenCode and Pi.
//
// It is a package of its own, not part of guard-cli, because it is pure
// text-in, text-out logic that must be tested on its own (with goldens and
// a round trip for every edit) and that has nothing to do with the
// command line: no disk, no clock, no environment.
//
// # What it edits
//
//   - JSON ([Doc]): parsed into an ordered tree, so unknown keys keep their
//     place and their values (numbers keep their exact text). Written back
//     with the indentation the file already used. A file with comments
//     (JSONC) is refused rather than stripped of them.
//   - TOML ([TOMLSet]): Codex's config.toml, edited line by line so that
//     comments, order and formatting survive; the result is checked by a
//     real TOML parser before it is accepted.
//   - Markdown instruction files ([SetBlock]): one block between marker
//     lines, replaced in place on every run.
//
// Every edit returns what it needs to be undone ([Change]): the previous
// value, the containers it had to create. Undoing reverts only what still
// holds the value guard wrote, so a value the user changed since is left
// alone.
//
// [Diff] renders a unified diff for --dry-run.
package agentcfg
