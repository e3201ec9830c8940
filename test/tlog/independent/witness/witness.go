package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/sumdb/note"
)

// cosigned is what the witness remembers per log: the latest checkpoint it cosigned.
type cosigned struct {
	Size int64  `json:"size"`
	Root []byte `json:"root"`
	// Note is the checkpoint with the log signatures the witness verified and its own cosignature.
	Note string `json:"note"`
}

type witness struct {
	key   *cosigner
	logs  map[string]note.Verifier
	state string
	// mu makes the check of the old size and the update of the latest checkpoint one step
	// (tlog-witness: otherwise two requests could roll the log back).
	mu     sync.Mutex
	latest map[string]cosigned
}

func newWitness(key *cosigner, vkeys []string, state string) (*witness, error) {
	w := &witness{key: key, logs: map[string]note.Verifier{}, state: state, latest: map[string]cosigned{}}
	for _, vkey := range vkeys {
		v, err := note.NewVerifier(vkey)
		if err != nil {
			return nil, fmt.Errorf("log key %q: %v", vkey, err)
		}
		w.logs[v.Name()] = v
	}
	if state != "" {
		if raw, err := os.ReadFile(state); err == nil {
			if err := json.Unmarshal(raw, &w.latest); err != nil {
				return nil, fmt.Errorf("%s: %v", state, err)
			}
		}
	}
	return w, nil
}

func (w *witness) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/add-checkpoint" && r.Method == http.MethodPost:
		w.addCheckpoint(rw, r)
	case len(parts) == 2 && parts[1] == "checkpoint" && r.Method == http.MethodGet:
		w.checkpoint(rw, parts[0])
	default:
		http.NotFound(rw, r)
	}
}

// httpError is a tlog-witness status with its reason.
type httpError struct {
	status int
	reason string
}

func (e *httpError) Error() string { return e.reason }

func fail(status int, format string, args ...any) *httpError {
	return &httpError{status: status, reason: fmt.Sprintf(format, args...)}
}

func (w *witness) addCheckpoint(rw http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	line, err := w.add(body)
	var conflict *staleSize
	switch {
	case errors.As(err, &conflict):
		rw.Header().Set("Content-Type", "text/x.tlog.size")
		rw.WriteHeader(http.StatusConflict)
		fmt.Fprintf(rw, "%d\n", conflict.size)
	case err != nil:
		status := http.StatusInternalServerError
		var he *httpError
		if errors.As(err, &he) {
			status = he.status
		}
		http.Error(rw, err.Error(), status)
	default:
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(rw, line)
	}
}

// staleSize is the 409 answer: the size of the latest checkpoint cosigned for the origin.
type staleSize struct{ size int64 }

func (e *staleSize) Error() string { return fmt.Sprintf("old size does not match %d", e.size) }

// add runs the add-checkpoint checks in the order tlog-witness gives them and returns the cosignature.
func (w *witness) add(body []byte) (string, error) {
	req, err := parseRequest(body)
	if err != nil {
		return "", err
	}
	origin, _, _ := strings.Cut(string(req.checkpoint), "\n")
	verifier, ok := w.logs[origin]
	if !ok {
		return "", fail(http.StatusNotFound, "unknown log origin %q", origin)
	}
	n, err := note.Open(req.checkpoint, note.VerifierList(verifier))
	if err != nil {
		return "", fail(http.StatusForbidden, "checkpoint signature: %v", err)
	}
	cp, err := parseCheckpoint(n.Text)
	if err != nil {
		return "", fail(http.StatusBadRequest, "%v", err)
	}
	if req.oldSize > cp.size {
		return "", fail(http.StatusBadRequest, "old size %d is above the checkpoint size %d", req.oldSize, cp.size)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	latest := w.latest[origin]
	if req.oldSize != latest.Size {
		return "", &staleSize{size: latest.Size}
	}
	if err := consistent(req, cp, latest); err != nil {
		return "", err
	}
	line := w.key.cosign(n.Text, uint64(time.Now().Unix()))
	next := cosigned{Size: cp.size, Root: cp.root, Note: n.Text + "\n" + verifiedSignatures(n) + line}
	if err := w.persist(origin, next); err != nil {
		return "", err
	}
	return line, nil
}

// consistent applies the size-zero, equal-size and consistency-proof rules (422 when they fail).
func consistent(req *request, cp *checkpoint, latest cosigned) error {
	empty := sha256.Sum256(nil)
	switch {
	case cp.size == 0 && !bytes.Equal(cp.root, empty[:]):
		return fail(http.StatusUnprocessableEntity, "a checkpoint of size 0 must have the empty tree's root")
	case req.oldSize == 0 && len(req.proof) > 0:
		return fail(http.StatusUnprocessableEntity, "the proof from size 0 must be empty")
	case req.oldSize == 0:
		return nil
	case req.oldSize == cp.size && !bytes.Equal(cp.root, latest.Root):
		return fail(http.StatusUnprocessableEntity, "same size %d, another root: a fork", cp.size)
	case req.oldSize == cp.size:
		return nil
	case !verifyConsistency(req.oldSize, cp.size, latest.Root, cp.root, req.proof):
		return fail(http.StatusUnprocessableEntity, "the consistency proof from %d to %d does not verify", req.oldSize, cp.size)
	}
	return nil
}

func verifiedSignatures(n *note.Note) string {
	var b strings.Builder
	for _, sig := range n.Sigs {
		fmt.Fprintf(&b, "\u2014 %s %s\n", sig.Name, sig.Base64)
	}
	return b.String()
}

func (w *witness) persist(origin string, next cosigned) error {
	latest := map[string]cosigned{}
	for k, v := range w.latest {
		latest[k] = v
	}
	latest[origin] = next
	if w.state != "" {
		raw, err := json.Marshal(latest)
		if err != nil {
			return err
		}
		if err := os.WriteFile(w.state+".tmp", raw, 0o600); err != nil {
			return err
		}
		if err := os.Rename(w.state+".tmp", w.state); err != nil {
			return err
		}
	}
	w.latest = latest
	return nil
}

// checkpoint serves GET /<hex SHA-256(origin)>/checkpoint: the latest cosigned checkpoint of that log.
func (w *witness) checkpoint(rw http.ResponseWriter, originHash string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for origin, c := range w.latest {
		sum := sha256.Sum256([]byte(origin))
		if hex.EncodeToString(sum[:]) == originHash {
			rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(rw, c.Note)
			return
		}
	}
	http.Error(rw, "never cosigned a checkpoint of this log", http.StatusNotFound)
}

type request struct {
	oldSize    int64
	proof      [][]byte
	checkpoint []byte
}

// parseRequest reads "old <size>\n", up to 63 base64 hash lines, an empty line, then the checkpoint.
func parseRequest(body []byte) (*request, error) {
	head, checkpoint, found := bytes.Cut(body, []byte("\n\n"))
	if !found {
		return nil, fail(http.StatusBadRequest, "no empty line before the checkpoint")
	}
	lines := strings.Split(string(head), "\n")
	ok := strings.HasPrefix(lines[0], "old ")
	size := strings.TrimPrefix(lines[0], "old ")
	old, err := strconv.ParseInt(size, 10, 64)
	if !ok || err != nil || old < 0 || strconv.FormatInt(old, 10) != size {
		return nil, fail(http.StatusBadRequest, "bad old size line %q", lines[0])
	}
	if len(lines)-1 > 63 {
		return nil, fail(http.StatusBadRequest, "more than 63 consistency proof lines")
	}
	req := &request{oldSize: old, checkpoint: checkpoint}
	for _, line := range lines[1:] {
		hash, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(hash) != sha256.Size {
			return nil, fail(http.StatusBadRequest, "bad proof line %q", line)
		}
		req.proof = append(req.proof, hash)
	}
	return req, nil
}

type checkpoint struct {
	size int64
	root []byte
}

// parseCheckpoint reads the tlog-checkpoint text: origin, size (no leading zeroes), base64 root.
func parseCheckpoint(text string) (*checkpoint, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 3 || lines[0] == "" {
		return nil, errors.New("checkpoint: fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return nil, fmt.Errorf("checkpoint: bad size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != sha256.Size {
		return nil, fmt.Errorf("checkpoint: bad root %q", lines[2])
	}
	return &checkpoint{size: size, root: root}, nil
}
