package main

// The fallback roots let the bot reach Discord over TLS from an image with
// no CA bundle (FROM scratch). Go uses them only when the system has none,
// so a host's own bundle, and what its administrator added to it, wins.
import _ "golang.org/x/crypto/x509roots/fallback"
