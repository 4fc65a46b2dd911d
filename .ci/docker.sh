#!/usr/bin/env bash
# Docker engine for CI on machines without a container registry.
#
# Source it (from .ci/run) and call the functions:
#   source .ci/docker.sh
#   if ci_docker_up; then ...tests against containers...; fi   # install + start + image
#   ci_docker_stop                                             # at the end (trap)
# or run it:
#   bash .ci/docker.sh install|start|stop|image|up|cleanup|status
#
# ci_docker_install  apt-get installs docker.io and debootstrap when missing
# ci_docker_start    starts dockerd in the background when no engine answers
#                    (log: $CI_DOCKERD_LOG, PID: $CI_DOCKERD_PIDFILE)
# ci_docker_stop     stops, by its PID, the dockerd that ci_docker_start started in
#                    this shell ("ci_docker_stop all": the one in the pidfile)
# ci_docker_image    builds ${TEST_POSTGRES_IMAGE:-adboost-postgres:15} (skipped when present)
# ci_docker_env      exports TEST_POSTGRES_IMAGE and the testcontainers settings
# ci_docker_up       all of the above but stop; non-zero when containers can't be used
# ci_docker_cleanup  removes testcontainers' leftover containers (Ryuk is disabled)
#
# Environment: CI_DOCKERD_LOG (/tmp/adboost-dockerd.log), CI_DOCKER_APT_LOG (/tmp/adboost-apt.log),
# CI_DOCKERD_PIDFILE (/tmp/adboost-dockerd.pid), CI_DOCKERD_TIMEOUT (30 s),
# DOCKERD_ARGS (extra dockerd arguments, tried first).

CI_DOCKERD_LOG="${CI_DOCKERD_LOG:-/tmp/adboost-dockerd.log}"
CI_DOCKERD_PIDFILE="${CI_DOCKERD_PIDFILE:-/tmp/adboost-dockerd.pid}"
CI_DOCKERD_TIMEOUT="${CI_DOCKERD_TIMEOUT:-30}"
CI_DOCKER_APT_LOG="${CI_DOCKER_APT_LOG:-/tmp/adboost-apt.log}"
CI_DOCKER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

_ci_docker_log() { printf '[docker] %s\n' "$*" >&2; }
_ci_docker_started=""

_ci_docker_apt_updated=""
_ci_docker_apt_install() {
	if [ "$(id -u)" != 0 ]; then
		_ci_docker_log "cannot install $* (not root)"
		return 1
	fi
	if [ -z "$_ci_docker_apt_updated" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$CI_DOCKER_APT_LOG" 2>&1 ||
			{ tail -n 20 "$CI_DOCKER_APT_LOG" >&2; return 1; }
		_ci_docker_apt_updated=1
	fi
	_ci_docker_log "installing $* (log $CI_DOCKER_APT_LOG)"
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-o Dpkg::Use-Pty=0 "$@" >>"$CI_DOCKER_APT_LOG" 2>&1; then
		tail -n 20 "$CI_DOCKER_APT_LOG" >&2
		return 1
	fi
}

ci_docker_install() {
	local missing=()
	command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
	command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
	[ "${#missing[@]}" -eq 0 ] && return 0
	_ci_docker_apt_install "${missing[@]}"
}

_ci_docker_answers() { timeout 10 docker info >/dev/null 2>&1; }

# The PID in our pidfile, if that process is still a dockerd.
_ci_docker_our_pid() {
	local pid
	pid="$(cat "$CI_DOCKERD_PIDFILE" 2>/dev/null)" || return 1
	[ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ] || return 1
	echo "$pid"
}

ci_docker_start() {
	if _ci_docker_answers; then
		_ci_docker_log "engine already running ($(docker version -f '{{.Server.Version}}' 2>/dev/null))"
		return 0
	fi
	if ! command -v dockerd >/dev/null 2>&1; then
		_ci_docker_log "dockerd is not installed"
		return 1
	fi
	local pid args i start
	if pid="$(_ci_docker_our_pid)"; then kill "$pid" 2>/dev/null || :; fi # ours, but not answering
	start="$(date +%s)"
	# Plain first; then without iptables; then without overlayfs.
	for args in "${DOCKERD_ARGS:-}" "--iptables=false" "--iptables=false --storage-driver=vfs"; do
		_ci_docker_log "starting dockerd${args:+ $args} (log $CI_DOCKERD_LOG)"
		echo "=== $(date -u +%FT%TZ) dockerd $args" >>"$CI_DOCKERD_LOG"
		# shellcheck disable=SC2086 # $args is a list of words
		dockerd $args </dev/null >>"$CI_DOCKERD_LOG" 2>&1 &
		pid=$!
		echo "$pid" >"$CI_DOCKERD_PIDFILE"
		for ((i = 0; i < CI_DOCKERD_TIMEOUT * 4; i++)); do
			if _ci_docker_answers; then
				_ci_docker_log "dockerd (PID $pid) answers after $(($(date +%s) - start)) s"
				_ci_docker_started=1
				return 0
			fi
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.25
		done
		_ci_docker_log "dockerd${args:+ $args} did not come up; last lines of its log:"
		tail -n 15 "$CI_DOCKERD_LOG" >&2
		kill "$pid" 2>/dev/null && sleep 1
		kill -9 "$pid" 2>/dev/null || :
		rm -f "$CI_DOCKERD_PIDFILE"
	done
	return 1
}

# Stops dockerd if ci_docker_start started it in this shell (an engine that
# was already running is left alone); "all" stops the one in the pidfile, whoever started it.
ci_docker_stop() {
	local pid i
	if [ "${1:-}" != all ] && [ -z "$_ci_docker_started" ]; then
		return 0
	fi
	pid="$(_ci_docker_our_pid)" || { rm -f "$CI_DOCKERD_PIDFILE"; return 0; }
	_ci_docker_log "stopping dockerd (PID $pid)"
	kill "$pid" 2>/dev/null || :
	for ((i = 0; i < 80; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.25
	done
	if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || :; fi
	rm -f "$CI_DOCKERD_PIDFILE"
	_ci_docker_started=""
	return 0
}

ci_docker_image() {
	bash "$CI_DOCKER_DIR/postgres-image/build.sh"
}

ci_docker_env() {
	export TEST_POSTGRES_IMAGE="${TEST_POSTGRES_IMAGE:-adboost-postgres:15}"
	export TESTCONTAINERS_RYUK_DISABLED=true
	export TESTCONTAINERS_HOST_OVERRIDE=localhost
}

ci_docker_up() {
	ci_docker_install || { _ci_docker_log "could not install docker.io/debootstrap"; return 1; }
	ci_docker_start || { _ci_docker_log "no Docker engine"; return 1; }
	ci_docker_image || { _ci_docker_log "could not build the PostgreSQL image"; return 1; }
	ci_docker_env
}

ci_docker_cleanup() {
	local ids
	ids="$(docker ps -aq --filter label=org.testcontainers=true 2>/dev/null)"
	[ -z "$ids" ] && return 0
	# shellcheck disable=SC2086
	docker rm -f -v $ids >/dev/null 2>&1 || :
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	case "${1:-}" in
	install) ci_docker_install ;;
	start) ci_docker_start ;;
	stop) ci_docker_stop all ;;
	image) ci_docker_image ;;
	up) ci_docker_up ;;
	cleanup) ci_docker_cleanup ;;
	status) _ci_docker_answers && docker version -f 'engine {{.Server.Version}}' ;;
	*)
		echo "usage: $0 install|start|stop|image|up|cleanup|status" >&2
		exit 2
		;;
	esac
fi
