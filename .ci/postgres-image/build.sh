#!/usr/bin/env bash
# Builds the air-gapped PostgreSQL test image ${TEST_POSTGRES_IMAGE:-adboost-postgres:15}
# from Debian packages, with no container registry: debootstrap + docker import.
# Needs root, a running Docker engine, and debootstrap (see .ci/docker.sh).
#
# Skips the build when the image exists and was built from this very build.sh
# and entrypoint.sh (label adboost.pgimage.hash); rebuilds it when they changed.
# An image of that name that this script did not build is left alone.
#
# Environment:
#   TEST_POSTGRES_IMAGE  image name               (default adboost-postgres:15)
#   DEBIAN_MIRROR        Debian mirror            (default: this machine's apt mirror)
#   DEBOOTSTRAP_CACHE    optional folder that keeps the downloaded .debs between builds
#   FORCE=1              rebuild even when the image is up to date
set -euo pipefail

IMAGE="${TEST_POSTGRES_IMAGE:-adboost-postgres:15}"
PG_MAJOR=15
SUITE=bookworm
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf '[postgres-image] %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

if ! docker info >/dev/null 2>&1; then
	log "error: no Docker engine answers (start one: bash .ci/docker.sh start)"
	exit 1
fi

HASH="$(cat "$HERE/build.sh" "$HERE/entrypoint.sh" | sha256sum | cut -c1-16)"

if [ "${FORCE:-0}" != 1 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
	have="$(docker image inspect -f '{{ index .Config.Labels "adboost.pgimage.hash" }}' "$IMAGE" 2>/dev/null || true)"
	if [ "$have" = "$HASH" ]; then
		log "image $IMAGE is up to date; skipping the build"
		exit 0
	elif [ -z "$have" ] || [ "$have" = '<no value>' ]; then
		log "image $IMAGE exists and was not built by this script; using it as is"
		exit 0
	fi
	log "image $IMAGE was built from other build files ($have, now $HASH); rebuilding"
	OLD_ID="$(docker image inspect -f '{{ .Id }}' "$IMAGE")"
fi

if [ "$(id -u)" != 0 ]; then
	log "error: must run as root (debootstrap)"
	exit 1
fi
command -v debootstrap >/dev/null || { log "error: debootstrap is not installed"; exit 1; }

# The Debian mirror this machine's apt uses (deb822 or one-line format).
mirror() {
	local m=""
	if [ -n "${DEBIAN_MIRROR:-}" ]; then
		echo "$DEBIAN_MIRROR"; return
	fi
	if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
		m="$(awk '
			/^[[:space:]]*$/ { if (uris != "" && suites ~ /(^| )'"$SUITE"'( |$)/) { print uris; exit } uris = ""; suites = ""; next }
			/^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); split($0, u, " "); uris = u[1] }
			/^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
			END { if (uris != "" && suites ~ /(^| )'"$SUITE"'( |$)/) print uris }
		' /etc/apt/sources.list.d/*.sources | head -n1)"
	fi
	if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
		m="$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)"
	fi
	echo "${m:-http://deb.debian.org/debian}"
}
MIRROR="$(mirror)"

WORK="$(mktemp -d /var/tmp/adboost-pgimage.XXXXXX)"
ROOTFS="$WORK/rootfs"
cleanup() {
	# debootstrap may leave /proc or /sys mounted in the target when it fails.
	awk -v w="$WORK" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null || :; done
	rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

t0="$(now)"
log "debootstrap $SUITE (minbase + postgresql-$PG_MAJOR) from $MIRROR into $ROOTFS"
# dpkg without fsync in the throw-away target (removed again below).
mkdir -p "$ROOTFS/etc/dpkg/dpkg.cfg.d"
echo force-unsafe-io >"$ROOTFS/etc/dpkg/dpkg.cfg.d/zz-adboost-unsafe-io"
cache=()
if [ -n "${DEBOOTSTRAP_CACHE:-}" ]; then
	mkdir -p "$DEBOOTSTRAP_CACHE"
	cache=(--cache-dir="$(cd "$DEBOOTSTRAP_CACHE" && pwd)")
fi
if ! debootstrap --variant=minbase --include="postgresql-$PG_MAJOR" "${cache[@]}" \
	"$SUITE" "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1; then
	tail -n 40 "$WORK/debootstrap.log" >&2
	[ -f "$ROOTFS/debootstrap/debootstrap.log" ] && tail -n 40 "$ROOTFS/debootstrap/debootstrap.log" >&2
	log "error: debootstrap failed"
	exit 1
fi
log "debootstrap done in $(since "$t0")"

t1="$(now)"
# en_US.UTF-8, the official image's locale (collation order in tests matches it).
chroot "$ROOTFS" localedef -i en_US -c -f UTF-8 -A /usr/share/locale/locale.alias en_US.UTF-8

# Server defaults as in the official image: listen on every address.
sed -ri "s!^#?(listen_addresses)\s*=\s*\S+.*!\1 = '*'!" \
	"$ROOTFS/usr/share/postgresql/$PG_MAJOR/postgresql.conf.sample"
grep -q "^listen_addresses = '\*'" "$ROOTFS/usr/share/postgresql/$PG_MAJOR/postgresql.conf.sample"

# The contrib extensions the service needs are part of postgresql-15.
for ext in pg_trgm unaccent; do
	[ -f "$ROOTFS/usr/share/postgresql/$PG_MAJOR/extension/$ext.control" ] ||
		{ log "error: extension $ext missing from the image"; exit 1; }
done

# Drop the cluster that postgresql-common made, apt's caches and lists, docs.
rm -rf "$ROOTFS/etc/postgresql/$PG_MAJOR" "$ROOTFS/var/lib/postgresql/$PG_MAJOR" \
	"$ROOTFS/var/log/postgresql/"* \
	"$ROOTFS/var/cache/apt/"*.bin "$ROOTFS/var/cache/apt/archives/"*.deb \
	"$ROOTFS/var/cache/apt/archives/partial/"* "$ROOTFS/var/lib/apt/lists/"* \
	"$ROOTFS/var/cache/debconf/"*-old "$ROOTFS/var/lib/dpkg/"*-old \
	"$ROOTFS/usr/share/doc/"* "$ROOTFS/usr/share/man/"* "$ROOTFS/usr/share/info/"* \
	"$ROOTFS/var/log/"*.log "$ROOTFS/var/log/apt/"* "$ROOTFS/debootstrap" \
	"$ROOTFS/run/"* "$ROOTFS/tmp/"* "$ROOTFS/etc/dpkg/dpkg.cfg.d/zz-adboost-unsafe-io"
# Half the image is LLVM, used only by JIT compilation, which tests don't want
# (it slows short queries down): without llvmjit.so the server runs without JIT.
rm -rf "$ROOTFS/usr/lib/postgresql/$PG_MAJOR/lib/llvmjit"* "$ROOTFS/usr/lib/postgresql/$PG_MAJOR/lib/bitcode" \
	"$ROOTFS"/usr/lib/*-linux-gnu/libLLVM-*.so* "$ROOTFS"/usr/lib/*-linux-gnu/libz3.so*
# Message translations (the server speaks English here).
find "$ROOTFS/usr/share/locale" -mindepth 1 -maxdepth 1 -type d -exec rm -rf '{}' +
# Docker mounts its own over these; leave no trace of the build machine.
: >"$ROOTFS/etc/resolv.conf"
echo localhost >"$ROOTFS/etc/hostname"
: >"$ROOTFS/etc/machine-id"

install -m 0755 "$HERE/entrypoint.sh" "$ROOTFS/usr/local/bin/docker-entrypoint.sh"
ln -sfn usr/local/bin/docker-entrypoint.sh "$ROOTFS/docker-entrypoint.sh"
mkdir -p "$ROOTFS/docker-entrypoint-initdb.d" "$ROOTFS/var/lib/postgresql/data" "$ROOTFS/run/postgresql"
chroot "$ROOTFS" chown postgres:postgres /var/lib/postgresql /var/lib/postgresql/data /run/postgresql
chmod 00700 "$ROOTFS/var/lib/postgresql/data"
chmod 03775 "$ROOTFS/run/postgresql"
log "rootfs prepared in $(since "$t1") ($(du -sh --one-file-system "$ROOTFS" | cut -f1))"

t2="$(now)"
PATH_IN_IMAGE="/usr/lib/postgresql/$PG_MAJOR/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
tar --numeric-owner -C "$ROOTFS" -c . |
	docker import \
		--change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
		--change 'CMD ["postgres"]' \
		--change "ENV PATH=$PATH_IN_IMAGE" \
		--change 'ENV LANG=en_US.utf8' \
		--change "ENV PG_MAJOR=$PG_MAJOR" \
		--change 'ENV PGDATA=/var/lib/postgresql/data' \
		--change 'EXPOSE 5432' \
		--change 'USER root' \
		--change 'WORKDIR /' \
		--change "LABEL adboost.pgimage.hash=$HASH" \
		--message "adboost PostgreSQL $PG_MAJOR test image (debootstrap $SUITE, no registry)" \
		- "$IMAGE" >/dev/null
log "docker import done in $(since "$t2")"
if [ -n "${OLD_ID:-}" ]; then
	docker image rm "$OLD_ID" >/dev/null 2>&1 || : # the outdated build, now untagged
fi
log "built $IMAGE ($(docker image inspect -f '{{ .Size }}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')) in $(since "$t0")"
