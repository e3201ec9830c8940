package main

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// checkpoint is a c2sp.org/tlog-checkpoint note text: origin, tree size, root hash, extensions.
type checkpoint struct {
	origin string
	size   int64
	root   tlog.Hash
}

// openCheckpoint verifies the note with the log's key alone (note.Open ignores signatures by unknown
// keys, e.g. witness cosignatures) and parses its text. The signing key must be named like the origin.
func openCheckpoint(signed []byte, verifier note.Verifier) (*checkpoint, error) {
	n, err := note.Open(signed, note.VerifierList(verifier))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 {
		return nil, fmt.Errorf("checkpoint has %d lines, want at least 3", len(lines))
	}
	if lines[0] != verifier.Name() {
		return nil, fmt.Errorf("checkpoint origin %q is not the key's name %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return nil, fmt.Errorf("bad tree size %q", lines[1])
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		return nil, fmt.Errorf("bad root hash %q", lines[2])
	}
	var root tlog.Hash
	copy(root[:], raw)
	return &checkpoint{origin: lines[0], size: size, root: root}, nil
}
