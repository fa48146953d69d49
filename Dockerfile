# syntax=docker/dockerfile:1
# tttbot's image: one static binary on an empty base, run as a non-root user,
# configured by environment variables alone, its database on the /data volume.
#
#   docker build -t tttbot .
#   docker buildx build --platform linux/amd64,linux/arm64 -t tttbot .
#   docker run -d -e DISCORD_TOKEN=... -v tttbot:/data tttbot
#
# The build stage runs scripts/build.sh, the script of the release binaries.
# To package a binary built outside of it, replace the stage with a directory
# holding what the stage leaves in /out: a static bot and an empty data
# directory.
#
#   scripts/build.sh -o dist amd64
#   mkdir -p image/out/data && cp dist/bot-linux-amd64 image/out/bot
#   docker build --build-context build=image .
#
# deploy/image_test.go builds the image so, with podman, on machines that
# cannot pull golang:1.26-bookworm: the runtime stage below is the same.

FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
# Set by BuildKit; other builders build for their own architecture.
ARG TARGETARCH
# SQLite is C: a cross compiler for another architecture than the builder's.
RUN arch="${TARGETARCH:-$(dpkg --print-architecture)}"; \
	if [ "$arch" != "$(dpkg --print-architecture)" ]; then \
		case "$arch" in \
		arm64) pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross" ;; \
		amd64) pkgs="gcc-x86-64-linux-gnu libc6-dev-amd64-cross" ;; \
		esac; \
		apt-get update && apt-get install -y --no-install-recommends $pkgs && rm -rf /var/lib/apt/lists/*; \
	fi
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The context has no .git: pass --build-arg VERSION=... --build-arg COMMIT=...
ARG VERSION
ARG COMMIT
RUN arch="${TARGETARCH:-$(go env GOARCH)}"; \
	scripts/build.sh -o /out "$arch" && mv "/out/bot-linux-$arch" /out/bot && mkdir /out/data

FROM scratch
COPY --from=build /out/bot /bot
# /data belongs to the bot's user, so that a new named volume, which takes
# the ownership of the image's directory, is writable.
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
# SQLite's temporary files go to the working directory when there is no /tmp,
# and so does the database: database.path's default, tttbot.db, is
# /data/tttbot.db. The image sets no database variable, so that
# TTTBOT_DATABASE_URL alone moves the games to PostgreSQL.
WORKDIR /data
ENV TTTBOT_HTTP_LISTEN=:8080
VOLUME /data
# /healthz and /metrics, and the interactions endpoint in http mode.
EXPOSE 8080
# bot healthcheck asks /healthz: the database takes a write and, in gateway
# mode, the gateway is connected.
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 \
	CMD ["/bot", "healthcheck"]
ENTRYPOINT ["/bot"]
CMD ["run"]
