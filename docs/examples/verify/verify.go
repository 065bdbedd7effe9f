// Checks X-SH-Signature (see docs/receiving-webhooks.md). Run against the published vectors:
//   node libs/receiver/scripts/vectors-tsv.mjs | go run docs/examples/verify/verify.go
package main

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// snippet:start
// Verify is true only for a genuine, fresh request. Pass the raw body bytes, before any JSON parsing.
func Verify(secret, timestamp, signature string, rawBody []byte, now time.Time, tolerance time.Duration) bool {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || ts < 0 || strings.TrimLeft(timestamp, "0123456789") != "" {
		return false
	}
	if age := now.Sub(time.Unix(ts, 0)); age > tolerance || age < -tolerance {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(rawBody)
	expected := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(expected), []byte(signature))
}

// snippet:end

func main() {
	failed := 0
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		f := strings.Split(scanner.Text(), "\t")
		secret, _ := base64.StdEncoding.DecodeString(f[1])
		body, _ := base64.StdEncoding.DecodeString(f[3])
		ts, _ := strconv.ParseInt(f[2], 10, 64)
		now, tol := time.Unix(ts, 0), 300*time.Second
		ok := Verify(string(secret), f[2], f[4], body, now, tol) &&
			!Verify(string(secret), f[2], f[4], append(body, ' '), now, tol) &&
			!Verify(string(secret), f[2], f[4], body, now.Add(301*time.Second), tol) &&
			!Verify(string(secret), f[2], "sha256=zz", body, now, tol) &&
			!Verify(string(secret), f[2], "sha256=\u017e", body, now, tol) &&
			!Verify(string(secret), "1e9", f[4], body, now, tol)
		if ok {
			fmt.Println("ok " + f[0])
		} else {
			fmt.Println("FAILED " + f[0])
			failed++
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}
