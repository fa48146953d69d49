#!/bin/sh
# Builds static tttbot binaries for Linux, as released and as the container
# image's build stage does: OUT/bot-linux-ARCH for each ARCH.
#
#   scripts/build.sh [-o OUT] [ARCH...]
#
# ARCH is amd64 or arm64 (default: this machine's); OUT defaults to dist.
# SQLite is C, so each architecture needs its C compiler: the host's gcc for
# its own, else Debian's cross compilers (gcc-aarch64-linux-gnu and
# libc6-dev-arm64-cross; gcc-x86-64-linux-gnu and libc6-dev-amd64-cross).
# CC overrides the compiler of a single ARCH. VERSION and COMMIT default to
# what git says, for builds with no .git (a container's build context).
set -eu

out=dist
while getopts o: opt; do
	case $opt in
	o) out=$OPTARG ;;
	*) echo "usage: scripts/build.sh [-o OUT] [ARCH...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."

host=$(go env GOHOSTARCH)
[ $# -gt 0 ] || set -- "$host"
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}

for arch in "$@"; do
	case $arch in
	amd64) cross=x86_64-linux-gnu-gcc ;;
	arm64) cross=aarch64-linux-gnu-gcc ;;
	*) echo "build.sh: unknown architecture $arch: want amd64 or arm64" >&2; exit 2 ;;
	esac
	if [ "$arch" = "$host" ]; then cross=gcc; fi
	[ $# -eq 1 ] && cross=${CC:-$cross}
	# -static links the C library in too, so the binary runs on an empty
	# image. netgo and osusergo keep DNS and user lookups in Go, which static
	# glibc cannot do; sqlite_omit_load_extension drops SQLite's dlopen.
	CGO_ENABLED=1 GOOS=linux GOARCH=$arch CC=$cross go build -trimpath -buildvcs=false \
		-tags 'sqlite_omit_load_extension netgo osusergo' \
		-ldflags "-s -w -X main.version=$version -X main.commit=$commit -linkmode=external -extldflags=-static" \
		-o "$out/bot-linux-$arch" ./cmd/bot
	echo "$out/bot-linux-$arch"
done
