// Command witness is a transparency-log witness written from the C2SP texts alone
// (c2sp.org/tlog-witness, tlog-cosignature, tlog-checkpoint, signed-note), with Go's standard library
// and golang.org/x/mod/sumdb/note for checking the log's Ed25519 checkpoint signature.
//
//	witness -keygen -name <witness name> -key-file <file>     writes a key, prints its verifier key
//	witness -name <name> -key-file <file> -log <log vkey> [-log <vkey>…] [-listen addr] [-state file]
//
// It serves POST /add-checkpoint and GET /<hex SHA-256(origin)>/checkpoint, keeps the latest cosigned
// size and root per origin (in -state, written before answering), and answers cosignature/v1 lines
// (Ed25519, key ID type 0x04). On start it prints "listening on http://<addr>" and its verifier key.
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
)

type logKeys []string

func (l *logKeys) String() string     { return strings.Join(*l, ",") }
func (l *logKeys) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var logs logKeys
	name := flag.String("name", "witness.example/w1", "the witness's key name")
	keyFile := flag.String("key-file", "", "file holding the witness's Ed25519 seed (base64)")
	keygen := flag.Bool("keygen", false, "write a new key to -key-file and print its verifier key")
	listen := flag.String("listen", "127.0.0.1:0", "address to serve on")
	state := flag.String("state", "", "file keeping the latest cosigned checkpoints (default: memory only)")
	flag.Var(&logs, "log", "verifier key of a log to witness (repeatable)")
	flag.Parse()
	if err := run(*name, *keyFile, *keygen, *listen, *state, logs); err != nil {
		fmt.Fprintln(os.Stderr, "witness:", err)
		os.Exit(1)
	}
}

func run(name, keyFile string, keygen bool, listen, state string, logs []string) error {
	if keyFile == "" {
		return errors.New("-key-file is required")
	}
	if keygen {
		_, private, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		if err := os.WriteFile(keyFile, []byte(base64.StdEncoding.EncodeToString(private.Seed())+"\n"), 0o600); err != nil {
			return err
		}
	}
	key, err := loadKey(name, keyFile)
	if err != nil {
		return err
	}
	if keygen {
		fmt.Println(key.vkey())
		return nil
	}
	w, err := newWitness(key, logs, state)
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	fmt.Printf("listening on http://%s\n%s\n", listener.Addr(), key.vkey())
	return http.Serve(listener, w)
}

// cosigner is an Ed25519 tlog-cosignature/v1 key.
type cosigner struct {
	name    string
	private ed25519.PrivateKey
}

func loadKey(name, file string) (*cosigner, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%s: not a base64 Ed25519 seed", file)
	}
	if name == "" || strings.ContainsAny(name, " +\n\t") {
		return nil, fmt.Errorf("key name %q: must be non-empty, without spaces or +", name)
	}
	return &cosigner{name: name, private: ed25519.NewKeyFromSeed(seed)}, nil
}

const cosignatureType = 0x04

func (c *cosigner) public() []byte { return c.private.Public().(ed25519.PublicKey) }

// keyID is SHA-256(name || "\n" || 0x04 || public key)[:4].
func (c *cosigner) keyID() []byte {
	h := sha256.New()
	h.Write([]byte(c.name + "\n"))
	h.Write([]byte{cosignatureType})
	h.Write(c.public())
	return h.Sum(nil)[:4]
}

// vkey is <name>+<hex key ID>+<base64(0x04 || public key)>.
func (c *cosigner) vkey() string {
	material := append([]byte{cosignatureType}, c.public()...)
	return fmt.Sprintf("%s+%s+%s", c.name, hex.EncodeToString(c.keyID()), base64.StdEncoding.EncodeToString(material))
}

// cosign returns the signature line over "cosignature/v1\ntime <t>\n" || checkpoint text, with the
// signature being key ID || timestamp (big-endian u64) || Ed25519 signature.
func (c *cosigner) cosign(text string, timestamp uint64) string {
	message := fmt.Sprintf("cosignature/v1\ntime %d\n%s", timestamp, text)
	sig := append([]byte{}, c.keyID()...)
	sig = binary.BigEndian.AppendUint64(sig, timestamp)
	sig = append(sig, ed25519.Sign(c.private, []byte(message))...)
	return fmt.Sprintf("\u2014 %s %s\n", c.name, base64.StdEncoding.EncodeToString(sig))
}
