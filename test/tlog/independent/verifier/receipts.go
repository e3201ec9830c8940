package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// findReceipts checks each receipt of file is the entry at its log.index, byte for byte in RFC 8785
// form, and that its Ed25519 signature verifies with the published receipt key its kid names.
func findReceipts(base, file string, cp *checkpoint, log *tiledLog) (int, error) {
	keys, err := receiptKeys(base)
	if err != nil {
		return 0, err
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var receipts []map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&receipts); err != nil {
		return 0, fmt.Errorf("%s: %v", file, err)
	}
	for i, r := range receipts {
		if err := findReceipt(r, keys, cp, log); err != nil {
			return 0, fmt.Errorf("receipt %d of %s: %v", i, file, err)
		}
	}
	return len(receipts), nil
}

func findReceipt(r map[string]any, keys map[string]ed25519.PublicKey, cp *checkpoint, log *tiledLog) error {
	pos, _ := r["log"].(map[string]any)
	index, err := pos["index"].(json.Number).Int64()
	if pos["origin"] != cp.origin || err != nil {
		return fmt.Errorf("log position %v does not name this log (%s)", r["log"], cp.origin)
	}
	if index < 0 || index >= cp.size {
		return fmt.Errorf("log.index %d is not in the checkpoint of size %d", index, cp.size)
	}
	entry, err := canonical(r)
	if err != nil {
		return err
	}
	if !bytes.Equal(entry, log.entries[index]) {
		return fmt.Errorf("entry %d is not this receipt: %.120s", index, log.entries[index])
	}
	sig, _ := r["sig"].(string)
	key, ok := keys[fmt.Sprint(r["kid"])]
	if !ok || !strings.HasPrefix(sig, "ed25519-") {
		return fmt.Errorf("unknown kid %v or sig format", r["kid"])
	}
	signature, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sig, "ed25519-"))
	if err != nil {
		return err
	}
	unsigned := map[string]any{}
	for k, v := range r {
		if k != "sig" {
			unsigned[k] = v
		}
	}
	message, err := canonical(unsigned)
	if err != nil {
		return err
	}
	if !ed25519.Verify(key, message, signature) {
		return fmt.Errorf("the receipt at %d does not verify with key %v", index, r["kid"])
	}
	return nil
}

// receiptKeys reads /.well-known/svc-receipt-pubkey.json: {kid, jwk: {x}, keys: [{kid, x}]}.
func receiptKeys(base string) (map[string]ed25519.PublicKey, error) {
	body, err := get(base + "/.well-known/svc-receipt-pubkey.json")
	if err != nil {
		return nil, err
	}
	type jwk struct {
		Kid string `json:"kid"`
		X   string `json:"x"`
	}
	var published struct {
		Jwk  jwk   `json:"jwk"`
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(body, &published); err != nil {
		return nil, err
	}
	keys := map[string]ed25519.PublicKey{}
	for _, k := range append(published.Keys, published.Jwk) {
		x, err := base64.RawURLEncoding.DecodeString(k.X)
		if err != nil || len(x) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("receipt key %s: bad x", k.Kid)
		}
		keys[k.Kid] = x
	}
	return keys, nil
}

// canonical is RFC 8785 for the values a receipt holds: objects (keys sorted; encoding/json sorts map
// keys bytewise, which is JCS's UTF-16 order for ASCII keys), arrays, printable strings, integers,
// booleans and null. Anything outside that subset is refused rather than encoded differently.
func canonical(v any) ([]byte, error) {
	if err := inSubset(v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func inSubset(v any) error {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if err := inSubset(k); err != nil {
				return err
			}
			if err := inSubset(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := inSubset(e); err != nil {
				return err
			}
		}
	case string:
		for _, c := range x {
			if c < 0x20 || c == 0x2028 || c == 0x2029 || c > 0x7e {
				return fmt.Errorf("string %q: outside the canonical-JSON subset this verifier encodes", x)
			}
		}
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return fmt.Errorf("number %s: only integers are encoded", x)
		}
	case bool, nil:
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}
