package main

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// tiledLog reads a c2sp.org/tlog-tiles log of a given size and keeps what it recomputed.
type tiledLog struct {
	base    string
	size    int64
	entries [][]byte
	hashes  memory
}

// memory holds stored hashes in tlog's dense layout, recomputed from the entries: the reference the
// served tiles are compared with.
type memory []tlog.Hash

func (m memory) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(m)) {
			return nil, fmt.Errorf("hash %d not recomputed", x)
		}
		out[i] = m[x]
	}
	return out, nil
}

// path is Go's sumdb tile path without its height element; data tiles are c2sp's "entries".
func path(t tlog.Tile) string {
	p := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", height))
	return "tile/" + strings.Replace(p, "data/", "entries/", 1)
}

// recompute reads every entry bundle, rebuilds the tree from the entries, checks its root against the
// checkpoint's, and checks every tile of the tree against the rebuilt one. It returns the tiles checked.
func (l *tiledLog) recompute(root tlog.Hash) (int, error) {
	tiles := treeTiles(l.size)
	for _, t := range tiles {
		if t.L != 0 {
			continue
		}
		bundle, err := get(l.base + "/" + path(tlog.Tile{H: t.H, L: -1, N: t.N, W: t.W}))
		if err != nil {
			return 0, err
		}
		entries, err := splitBundle(bundle, t.W)
		if err != nil {
			return 0, fmt.Errorf("entry bundle %d: %v", t.N, err)
		}
		for _, e := range entries {
			stored, err := tlog.StoredHashes(int64(len(l.entries)), e, l.hashes)
			if err != nil {
				return 0, err
			}
			l.hashes = append(l.hashes, stored...)
			l.entries = append(l.entries, e)
		}
	}
	got, err := tlog.TreeHash(l.size, l.hashes)
	if err != nil {
		return 0, err
	}
	if got != root {
		return 0, fmt.Errorf("the root recomputed from the entries, %v, is not the checkpoint's %v", got, root)
	}
	for _, t := range tiles {
		want, err := tlog.ReadTileData(t, l.hashes)
		if err != nil {
			return 0, err
		}
		served, err := get(l.base + "/" + path(t))
		if err != nil {
			return 0, err
		}
		if !bytes.Equal(served, want) {
			return 0, fmt.Errorf("%s is not the tile of the entries", path(t))
		}
	}
	return len(tiles), nil
}

// treeTiles lists the tiles of a tree of size n: tlog.NewTiles(h, 0, n) lists a partial tile at every
// width up to the current one (what a log publishes over time); only the widest is this tree's.
func treeTiles(n int64) []tlog.Tile {
	all := tlog.NewTiles(height, 0, n)
	var tiles []tlog.Tile
	for i, t := range all {
		if i+1 < len(all) && all[i+1].L == t.L && all[i+1].N == t.N {
			continue
		}
		tiles = append(tiles, t)
	}
	return tiles
}

// splitBundle splits big-endian uint16 length-prefixed entries; a bundle of width w holds exactly w.
func splitBundle(b []byte, w int) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, fmt.Errorf("truncated length")
		}
		n := int(b[0])<<8 | int(b[1])
		if len(b) < 2+n {
			return nil, fmt.Errorf("truncated entry")
		}
		out = append(out, b[2:2+n])
		b = b[2+n:]
	}
	if len(out) != w {
		return nil, fmt.Errorf("%d entries, want %d", len(out), w)
	}
	return out, nil
}
