// Command verifier checks svc's transparency log with Go's golang.org/x/mod/sumdb/tlog and /note
// and nothing of svc's: it reads the log only through the C2SP formats (c2sp.org/tlog-tiles,
// tlog-checkpoint, signed-note) and the published receipt key.
//
//	verifier -url <svc base URL> [-key <vkey>] [-receipts <file>] [-old <checkpoint file>] [-save <file>]
//
// It verifies the checkpoint's Ed25519 signature (ignoring signatures by other keys, such as witness
// cosignatures), reads every entry bundle and every tile of the checkpoint's tree, recomputes the root
// from the entries and compares every tile byte for byte, finds each receipt of -receipts (a JSON array)
// at its log.index with its Ed25519 signature checked, and checks that the checkpoint saved by an
// earlier run (-old) is a prefix of the current one. On success it prints a JSON summary; on any
// failure it exits 1 with the reason.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const height = 8

type summary struct {
	Origin         string `json:"origin"`
	Size           int64  `json:"size"`
	Root           string `json:"root"`
	TilesChecked   int    `json:"tiles_checked"`
	ReceiptsFound  int    `json:"receipts_found"`
	ConsistentWith *int64 `json:"consistent_with,omitempty"`
}

func main() {
	base := flag.String("url", "", "svc base URL, e.g. http://127.0.0.1:8080")
	key := flag.String("key", "", "the log's verifier key (default: GET <url>/log/key)")
	receipts := flag.String("receipts", "", "JSON file: an array of receipts to find in the log")
	old := flag.String("old", "", "a checkpoint saved by an earlier run: must be consistent with the current one")
	save := flag.String("save", "", "write the verified current checkpoint to this file")
	flag.Parse()
	if *base == "" {
		fmt.Fprintln(os.Stderr, "usage: verifier -url <svc base URL> [-key vkey] [-receipts file] [-old file] [-save file]")
		os.Exit(2)
	}
	out, err := verify(strings.TrimRight(*base, "/"), *key, *receipts, *old, *save)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verifier:", err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

func verify(base, vkey, receiptsFile, oldFile, saveFile string) (*summary, error) {
	if vkey == "" {
		body, err := get(base + "/log/key")
		if err != nil {
			return nil, err
		}
		vkey = strings.TrimSpace(string(body))
	}
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return nil, fmt.Errorf("log key %q: %v", vkey, err)
	}
	signed, err := get(base + "/log/checkpoint")
	if err != nil {
		return nil, err
	}
	cp, err := openCheckpoint(signed, verifier)
	if err != nil {
		return nil, fmt.Errorf("/log/checkpoint: %v", err)
	}
	log := &tiledLog{base: base + "/log", size: cp.size}
	tiles, err := log.recompute(cp.root)
	if err != nil {
		return nil, err
	}
	out := &summary{Origin: cp.origin, Size: cp.size, Root: cp.root.String(), TilesChecked: tiles}
	if receiptsFile != "" {
		if out.ReceiptsFound, err = findReceipts(base, receiptsFile, cp, log); err != nil {
			return nil, err
		}
	}
	if oldFile != "" {
		if out.ConsistentWith, err = consistent(oldFile, verifier, cp, log); err != nil {
			return nil, err
		}
	}
	if saveFile != "" {
		if err := os.WriteFile(saveFile, signed, 0o644); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// consistent checks that the checkpoint in file, signed by the same key, is a prefix of cp.
func consistent(file string, verifier note.Verifier, cp *checkpoint, log *tiledLog) (*int64, error) {
	saved, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	old, err := openCheckpoint(saved, verifier)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if old.origin != cp.origin || old.size > cp.size {
		return nil, fmt.Errorf("FORK: old checkpoint %s@%d is not a prefix of %s@%d", old.origin, old.size, cp.origin, cp.size)
	}
	if old.size > 0 {
		proof, err := tlog.ProveTree(cp.size, old.size, log.hashes)
		if err != nil {
			return nil, err
		}
		if err := tlog.CheckTree(proof, cp.size, cp.root, old.size, old.root); err != nil {
			return nil, fmt.Errorf("FORK: checkpoint of size %d is not consistent with size %d: %v", old.size, cp.size, err)
		}
	}
	return &old.size, nil
}

func get(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s: %.200s", url, resp.Status, body)
	}
	return body, nil
}
