#!/usr/bin/env bash
# Runs the service image ${ADBOOST_IMAGE:-adboost:latest} against a
# PostgreSQL server: a container of ${TEST_POSTGRES_IMAGE:-adboost-postgres:15}
# when that image exists (make postgres-image), else the local server at
# 127.0.0.1:5432 (a database of its own, dropped at the end). It loads the demo
# data with `adboost demo` (which also creates the missing database), serves,
# waits until /readyz answers 200, signs the demo user in and reads the user
# with the token. Containers use the host's network. Exits non-zero on failure.
set -euo pipefail

IMAGE="${ADBOOST_IMAGE:-adboost:latest}"
PG_IMAGE="${TEST_POSTGRES_IMAGE:-adboost-postgres:15}"
name="adboost-image-check-$$"
log() { printf '[image-check] %s\n' "$*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

pg_container="" db_local=""
cleanup() {
	docker rm -f "$name-api" >/dev/null 2>&1 || :
	[ -n "$pg_container" ] && docker rm -f -v "$pg_container" >/dev/null 2>&1 || :
	[ -n "$db_local" ] && psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db_local WITH (FORCE)" >/dev/null 2>&1 || :
}
trap cleanup EXIT

if docker image inspect "$PG_IMAGE" >/dev/null 2>&1; then
	pg_port="$(free_port)"
	pg_container="$name-pg"
	log "PostgreSQL: a container of $PG_IMAGE on 127.0.0.1:$pg_port"
	docker run -d --name "$pg_container" --network host -e POSTGRES_HOST_AUTH_METHOD=trust \
		"$PG_IMAGE" -c listen_addresses=127.0.0.1 -p "$pg_port" >/dev/null
	for _ in $(seq 1 120); do
		# Ready once the real server (the second "ready" line) runs.
		[ "$(docker logs "$pg_container" 2>&1 | grep -c 'ready to accept connections')" -ge 2 ] && break
		sleep 0.5
	done
	database_url="postgres://postgres@127.0.0.1:$pg_port/adboost?sslmode=disable"
else
	db_local="adboost_image_check_$$"
	log "PostgreSQL: the local server, database $db_local ($PG_IMAGE is not built)"
	database_url="postgres://postgres@127.0.0.1:5432/$db_local?sslmode=disable"
fi

api_port="$(free_port)"
env=(-e "DATABASE_URL=$database_url" -e "HTTP_ADDR=127.0.0.1:$api_port" -e "JWT_SECRET=image-check-secret-image-check-secret")
log "adboost version: $(docker run --rm "$IMAGE" version)"
log "adboost demo (creates the database, migrates, loads the demo data)"
docker run --rm --network host "${env[@]}" "$IMAGE" demo
log "adboost serve on 127.0.0.1:$api_port"
docker run -d --name "$name-api" --network host "${env[@]}" "$IMAGE" >/dev/null

base="http://127.0.0.1:$api_port"
ready=""
for _ in $(seq 1 120); do
	if [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ]; then ready=1; break; fi
	sleep 0.5
done
if [ -z "$ready" ]; then
	log "/readyz did not answer 200; the service's log:"
	docker logs "$name-api" >&2
	exit 1
fi
log "/readyz answers 200"

login="$(curl -sS -X POST "$base/v1/user/login-password" -H 'Content-Type: application/json' \
	-d '{"email":"demo@adboost.example","password":"demo-password"}')"
token="$(printf '%s' "$login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')" || {
	log "sign-in failed: $login"; docker logs "$name-api" >&2; exit 1; }
detail="$(curl -sS -w ' %{http_code}' "$base/v1/user/detail" -H "Authorization: Bearer $token")"
case "$detail" in
*'"email":"demo@adboost.example"'*' 200') log "sign-in and user/detail answer 200 from the image" ;;
*) log "user/detail: $detail"; docker logs "$name-api" >&2; exit 1 ;;
esac
# The certificates and time zones are in the image.
files="$(docker create "$IMAGE")"
listing="$(docker export "$files" | tar -t)"
docker rm "$files" >/dev/null
for f in etc/ssl/certs/ca-certificates.crt usr/share/zoneinfo/Europe/Prague usr/share/zoneinfo/UTC etc/passwd usr/local/bin/adboost; do
	grep -qx "$f" <<<"$listing" || { log "the image lacks /$f"; exit 1; }
done
log "the image holds the CA certificates, tzdata and the binary ($(wc -l <<<"$listing") files)"
