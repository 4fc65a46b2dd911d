#!/usr/bin/env bash
# Builds the service image ${ADBOOST_IMAGE:-adboost:latest} with no registry:
# a static binary (CGO_ENABLED=0) on FROM scratch, with the CA certificates and
# tzdata of this machine's Debian packages (installed with apt-get when
# missing) copied into the build context. Needs a running Docker engine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="$PATH:/usr/local/go/bin"

IMAGE="${ADBOOST_IMAGE:-adboost:latest}"
log() { printf '[image] %s\n' "$*" >&2; }

installed="$(dpkg-query -W -f='${Status}\n' ca-certificates tzdata 2>/dev/null | grep -c 'install ok installed' || :)"
if [ "$installed" != 2 ] || [ ! -s /etc/ssl/certs/ca-certificates.crt ] || [ ! -e /usr/share/zoneinfo/Europe/Prague ]; then
	log "installing ca-certificates and tzdata"
	apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends ca-certificates tzdata >/dev/null
fi
ca_version="$(dpkg-query -W -f='${Version}' ca-certificates)"
tz_version="$(dpkg-query -W -f='${Version}' tzdata)"

ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
log "building the static binary"
CGO_ENABLED=0 go build -trimpath -buildvcs=auto -ldflags='-s -w' -o "$ctx/adboost" ./cmd/adboost

mkdir -p "$ctx/rootfs/etc/ssl/certs" "$ctx/rootfs/usr/share" "$ctx/rootfs/tmp"
chmod 1777 "$ctx/rootfs/tmp"
# ca-certificates' bundle (made by update-ca-certificates from the package's
# certificates) and tzdata's zone files, as dpkg installed them.
cp /etc/ssl/certs/ca-certificates.crt "$ctx/rootfs/etc/ssl/certs/"
cp -a /usr/share/zoneinfo "$ctx/rootfs/usr/share/"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' >"$ctx/rootfs/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$ctx/rootfs/etc/group"

revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
log "docker build $IMAGE (ca-certificates $ca_version, tzdata $tz_version, revision $revision)"
DOCKER_BUILDKIT=0 docker build -q -f .ci/image/Dockerfile -t "$IMAGE" \
	--label org.opencontainers.image.title=adboost \
	--label org.opencontainers.image.revision="$revision" \
	--label adboost.ca-certificates="$ca_version" \
	--label adboost.tzdata="$tz_version" \
	"$ctx" >/dev/null
docker image inspect -f '{{.Id}} {{.Size}} bytes' "$IMAGE" | sed "s|^|[image] $IMAGE |" >&2
