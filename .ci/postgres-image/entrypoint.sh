#!/usr/bin/env bash
# Entrypoint of the air-gapped PostgreSQL test image (see build.sh).
#
# Emulates the official postgres image's docker-entrypoint.sh closely enough
# for testcontainers-go's postgres module (postgres.Run + BasicWaitStrategies):
#   - honours POSTGRES_USER (default postgres), POSTGRES_PASSWORD,
#     POSTGRES_DB (default = user), PGDATA, POSTGRES_INITDB_ARGS,
#     POSTGRES_HOST_AUTH_METHOD and the *_FILE variants of the first three;
#   - on first start: initdb, a temporary server listening on the unix socket
#     only, role/database creation, /docker-entrypoint-initdb.d/*, stop, and
#     then the real server. Both servers log "database system is ready to
#     accept connections", which BasicWaitStrategies waits for twice;
#   - arguments starting with "-" are passed to postgres; any other command
#     (bash, psql, ...) is run as is.
# Runs as root, drops to the postgres user with setpriv (util-linux).
set -Eeo pipefail

# file_env VAR [DEFAULT]: VAR or the contents of the file named by VAR_FILE.
file_env() {
	local var="$1" fileVar="${1}_FILE" def="${2:-}"
	if [ -n "${!var:-}" ] && [ -n "${!fileVar:-}" ]; then
		echo >&2 "error: both $var and $fileVar are set (but are exclusive)"
		exit 1
	fi
	local val="$def"
	if [ -n "${!var:-}" ]; then
		val="${!var}"
	elif [ -n "${!fileVar:-}" ]; then
		val="$(<"${!fileVar}")"
	fi
	export "$var"="$val"
	unset "$fileVar"
}

# "docker run IMAGE -c fsync=off" means "postgres -c fsync=off".
if [ "${1:0:1}" = '-' ]; then
	set -- postgres "$@"
fi

# Anything but the server: just run it (as the image user, root by default).
if [ "$1" != 'postgres' ]; then
	exec "$@"
fi

export PGDATA="${PGDATA:-/var/lib/postgresql/data}"

if [ "$(id -u)" = '0' ]; then
	mkdir -p "$PGDATA" /var/run/postgresql
	chmod 00700 "$PGDATA" || :
	chmod 03775 /var/run/postgresql || :
	chown postgres:postgres /var/run/postgresql
	# Own PGDATA unless it is already postgres' (a mounted volume may not allow it).
	find "$PGDATA" \! -user postgres -exec chown postgres:postgres '{}' + 2>/dev/null || :
	export HOME=/var/lib/postgresql USER=postgres LOGNAME=postgres
	exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

# From here on: the postgres user (or whatever non-root user the container runs as).
mkdir -p "$PGDATA" 2>/dev/null || :
chmod 00700 "$PGDATA" 2>/dev/null || :

if [ ! -s "$PGDATA/PG_VERSION" ]; then
	file_env POSTGRES_PASSWORD
	file_env POSTGRES_USER 'postgres'
	file_env POSTGRES_DB "$POSTGRES_USER"
	file_env POSTGRES_INITDB_ARGS
	auth="${POSTGRES_HOST_AUTH_METHOD:-}"
	if [ -z "$auth" ]; then
		if [ -n "$POSTGRES_PASSWORD" ]; then auth='scram-sha-256'; else auth='trust'; fi
	fi
	if [ -z "$POSTGRES_PASSWORD" ] && [ "$auth" != 'trust' ]; then
		cat >&2 <<-'EOE'
			Error: Database is uninitialized and superuser password is not specified.
			       Set POSTGRES_PASSWORD to a non-empty value for the superuser,
			       or POSTGRES_HOST_AUTH_METHOD=trust to allow all connections
			       without a password.
		EOE
		exit 1
	fi
	if [ -z "$POSTGRES_PASSWORD" ]; then
		echo >&2 'WARNING: no POSTGRES_PASSWORD: every host may connect without a password.'
	fi

	# initdb; local (unix socket) connections get "trust", like the official image.
	initdb_args=(--username="$POSTGRES_USER" --auth-local=trust --auth-host=trust)
	if [ -n "${POSTGRES_INITDB_WALDIR:-}" ]; then
		initdb_args+=(--waldir "$POSTGRES_INITDB_WALDIR")
	fi
	if [ -n "$POSTGRES_PASSWORD" ]; then
		# shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of words on purpose
		initdb "${initdb_args[@]}" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") $POSTGRES_INITDB_ARGS >&2
	else
		# shellcheck disable=SC2086
		initdb "${initdb_args[@]}" $POSTGRES_INITDB_ARGS >&2
	fi

	printf '\nhost all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
	if [ "$auth" = 'md5' ]; then
		printf "password_encryption = 'md5'\n" >>"$PGDATA/postgresql.conf"
	fi

	# Temporary server: unix socket only, so nothing connects before init is done.
	opts="-c listen_addresses='' -p ${PGPORT:-5432}"
	if [ "$#" -gt 1 ]; then opts="$(printf '%q ' "${@:2}")$opts"; fi
	PGUSER="$POSTGRES_USER" pg_ctl -D "$PGDATA" -w start -o "$opts"

	psql_base=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc)
	if [ "$POSTGRES_DB" != 'postgres' ]; then
		exists="$("${psql_base[@]}" --dbname postgres -tA --set db="$POSTGRES_DB" \
			<<<"SELECT 1 FROM pg_database WHERE datname = :'db';")"
		if [ -z "$exists" ]; then
			"${psql_base[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";' >&2
		fi
	fi

	export PGUSER="$POSTGRES_USER" PGDATABASE="$POSTGRES_DB" PGPASSWORD="${PGPASSWORD:-$POSTGRES_PASSWORD}"
	shopt -s nullglob
	for f in /docker-entrypoint-initdb.d/*; do
		case "$f" in
		*.sh)
			if [ -x "$f" ]; then
				echo >&2 "$0: running $f"; "$f"
			else
				echo >&2 "$0: sourcing $f"
				# shellcheck disable=SC1090
				. "$f"
			fi
			;;
		*.sql) echo >&2 "$0: running $f"; "${psql_base[@]}" --dbname "$POSTGRES_DB" -f "$f" >&2 ;;
		*.sql.gz) echo >&2 "$0: running $f"; gunzip -c "$f" | "${psql_base[@]}" --dbname "$POSTGRES_DB" >&2 ;;
		*.sql.xz) echo >&2 "$0: running $f"; xzcat "$f" | "${psql_base[@]}" --dbname "$POSTGRES_DB" >&2 ;;
		*) echo >&2 "$0: ignoring $f" ;;
		esac
	done
	shopt -u nullglob
	unset PGUSER PGDATABASE PGPASSWORD

	pg_ctl -D "$PGDATA" -m fast -w stop
	echo >&2
	echo >&2 'PostgreSQL init process complete; ready for start up.'
	echo >&2
else
	echo >&2
	echo >&2 'PostgreSQL Database directory appears to contain a database; Skipping initialization'
	echo >&2
fi

# The real server; listen_addresses='*' comes from postgresql.conf (set at build).
# The official image has STOPSIGNAL SIGINT (fast shutdown: "docker stop" and
# testcontainers' Terminate don't wait for clients to go away), which docker
# import cannot set: so this shell stays as PID 1 and turns SIGTERM into SIGINT.
set +e
"$@" &
pid=$!
trap 'kill -INT "$pid" 2>/dev/null' TERM INT
trap 'kill -QUIT "$pid" 2>/dev/null' QUIT
while :; do
	wait "$pid"
	rc=$?
	kill -0 "$pid" 2>/dev/null || break # else a trapped signal interrupted wait
done
exit "$rc"
