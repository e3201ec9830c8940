package main

import (
	"bytes"
	"crypto/sha256"
)

func nodeHash(left, right []byte) []byte {
	h := sha256.New()
	h.Write([]byte{1})
	h.Write(left)
	h.Write(right)
	return h.Sum(nil)
}

// verifyConsistency is RFC 9162 §2.1.4.2 for 0 < first < second.
func verifyConsistency(first, second int64, firstHash, secondHash []byte, proof [][]byte) bool {
	if first <= 0 || first >= second {
		return false
	}
	path := proof
	if first&(first-1) == 0 { // a power of two: the old root is the first node of the path
		path = append([][]byte{firstHash}, proof...)
	}
	if len(path) == 0 {
		return false
	}
	fn, sn := first-1, second-1
	for fn&1 == 1 {
		fn, sn = fn>>1, sn>>1
	}
	fr, sr := path[0], path[0]
	for _, c := range path[1:] {
		if sn == 0 {
			return false
		}
		if fn&1 == 1 || fn == sn {
			fr, sr = nodeHash(c, fr), nodeHash(c, sr)
			for fn&1 == 0 && fn != 0 {
				fn, sn = fn>>1, sn>>1
			}
		} else {
			sr = nodeHash(sr, c)
		}
		fn, sn = fn>>1, sn>>1
	}
	return sn == 0 && bytes.Equal(fr, firstHash) && bytes.Equal(sr, secondHash)
}
