#!/usr/bin/env bash
# `npm start`: n8n with our nodes, next to the AWeber sandbox, ready to try (walkthrough: docs/getting-started.md).
# Builds the package, installs the pinned n8n once (scripts/n8n-runtime.sh), installs the fresh build as a community
# package, starts the sandbox and n8n, then scripts/start/provision.ts sets up the owner, the connected credential and
# the example workflows (examples/*.json). Ctrl-C (or SIGTERM) stops n8n and the sandbox; so does the end of the
# parent process. (package.json runs this with `exec`, so that npm's signals reach it and not an intermediate sh.)
#
# Environment: N8N_PORT (default 5678), AWEBER_SANDBOX_PORT (default 8787): when the default is taken, a free port
# is used instead. N8N_OWNER_EMAIL / N8N_OWNER_PASSWORD (default owner@example.com / Sandbox-Owner-1).
# AWEBER_START_FOLDER (default .n8n-runtime/user): n8n's database, the logs, what earlier starts imported.
# Other N8N_* variables reach n8n (scripts/n8n-runtime.sh).
set -euo pipefail

# shellcheck source=scripts/n8n-runtime.sh
source "$(dirname "${BASH_SOURCE[0]}")/n8n-runtime.sh"
cd "$N8N_RT_PROJECT_DIR"

DEFAULT_N8N_PORT=5678
DEFAULT_SANDBOX_PORT=8787
user_folder=${AWEBER_START_FOLDER:-$N8N_RT_DIR/user}
sandbox_pid_file=$user_folder/sandbox.pid
started_at=$SECONDS
running=false

say() { printf '[npm start] %s\n' "$*" >&2; }
fail() {
	say "error: $*"
	exit 1
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# <name> <requested or empty> <default>: the requested port must be free; the default gives way to a free one.
choose_port() {
	local name=$1 requested=$2 default=$3
	if [[ -n $requested ]]; then
		port_taken "$requested" && fail "port $requested ($name) is in use"
		echo "$requested"
	elif port_taken "$default"; then
		local port
		port=$(n8n_rt_free_port)
		say "port $default is in use: $name gets port $port"
		echo "$port"
	else
		echo "$default"
	fi
}

stop_sandbox() {
	[[ -f $sandbox_pid_file ]] || return 0
	local pid
	pid=$(cat "$sandbox_pid_file")
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM -- "-$pid" 2>/dev/null || true
		local waited=0
		while kill -0 "$pid" 2>/dev/null && ((waited < 20)); do
			sleep 0.5
			waited=$((waited + 1))
		done
		kill -KILL -- "-$pid" 2>/dev/null || true
	fi
	rm -f "$sandbox_pid_file"
}

# <pid>: the process and everything below it, by parent id (the step's npm, its sh, tsc, an n8n install...).
kill_tree() {
	local child
	kill -TERM "$1" 2>/dev/null || true
	for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
}

# Runs one step (a command or function) in the background, without the lock's descriptor 8, and waits for it.
# Bash runs a trap only once the foreground command has finished, so a SIGTERM during a minutes-long install
# would wait for it; `wait` returns at once instead, and stop_all ends the step. (Ctrl-C reaches the whole process
# group anyway; SIGTERM from npm, a process manager or `timeout` reaches this script only.) The step's output is
# redirected here, not at the call, so that what stop_all says still reaches the terminal.
# Usage: run_step [--log <file> (stdout and stderr) | --no-stdout] <command> [args...]
step_pid=
run_step() {
	local log= no_stdout=false
	case $1 in
	--log)
		log=$2
		shift 2
		;;
	--no-stdout)
		no_stdout=true
		shift
		;;
	esac
	if [[ -n $log ]]; then
		"$@" >"$log" 2>&1 8>&- &
	elif [[ $no_stdout == true ]]; then
		"$@" >/dev/null 8>&- &
	else
		"$@" 8>&- &
	fi
	step_pid=$!
	local status=0
	wait "$step_pid" || status=$?
	step_pid=
	return "$status"
}

stop_all() {
	local status=$?
	# A second Ctrl-C must not cut the shutdown short.
	trap '' INT TERM
	if [[ -n $step_pid ]]; then
		[[ $running == true ]] || say "stopping"
		kill_tree "$step_pid"
		wait "$step_pid" 2>/dev/null || true
	fi
	if [[ $running == true ]]; then
		say "stopping n8n and the sandbox"
		n8n_rt_stop "$user_folder" || true
		stop_sandbox
		say "stopped"
	fi
	exit "$status"
}

mkdir -p "$user_folder"
user_folder=$(cd "$user_folder" && pwd)
sandbox_pid_file=$user_folder/sandbox.pid
# One `npm start` per folder (n8n's SQLite database lives there). The lock goes when this script ends, however it
# ends; n8n and the sandbox get the descriptor closed (8>&-) so that they do not hold it.
exec 8>"$user_folder/start.lock"
flock -n 8 || fail "npm start is already running for $user_folder"

trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Left over from a start that was killed before it could clean up.
n8n_rt_stop "$user_folder"
stop_sandbox

say "building the package"
build_log=$user_folder/build.log
run_step --log "$build_log" npm run build || {
	tail -n 30 "$build_log" >&2
	fail "npm run build failed (log: $build_log)"
}

run_step n8n_rt_install
# Packed again on every start, so that the editor runs the code as it is now.
run_step n8n_rt_install_package "$user_folder" "$(n8n_rt_pack)"

n8n_port=$(choose_port n8n "${N8N_PORT:-}" "$DEFAULT_N8N_PORT")
sandbox_port=$(choose_port "the sandbox" "${AWEBER_SANDBOX_PORT:-}" "$DEFAULT_SANDBOX_PORT")
n8n_url=http://127.0.0.1:$n8n_port
sandbox_url=http://127.0.0.1:$sandbox_port

running=true
say "starting the AWeber sandbox on $sandbox_url"
rm -f "$sandbox_pid_file"
# Its own process group (setsid), like n8n's: Ctrl-C reaches this script, which stops both in order.
# n8n's OAuth callback must be one of the sandbox apps' redirect URIs.
(AWEBER_SANDBOX_REDIRECT_URIS="$n8n_url/rest/oauth2-credential/callback,http://localhost:$n8n_port/rest/oauth2-credential/callback" \
	exec setsid bash -c 'echo $$ >"$0" && exec "$@"' "$sandbox_pid_file" \
	node_modules/.bin/tsx test/sandbox/cli.ts --port="$sandbox_port" >"$user_folder/sandbox.log" 2>&1 </dev/null 8>&-) &
deadline=$((SECONDS + 60))
until curl -sf -o /dev/null "$sandbox_url/__sandbox/"; do
	if ((SECONDS > deadline)) || { [[ -s $sandbox_pid_file ]] && ! kill -0 "$(cat "$sandbox_pid_file")" 2>/dev/null; }; then
		tail -n 20 "$user_folder/sandbox.log" >&2
		fail "the sandbox did not start (log: $user_folder/sandbox.log)"
	fi
	sleep 0.2
done

say "starting n8n on $n8n_url (log: $user_folder/n8n.log)"
run_step --no-stdout n8n_rt_start "$user_folder" "$n8n_port" --background

START_N8N_URL=$n8n_url START_SANDBOX_URL=$sandbox_url \
	START_OWNER_EMAIL=${N8N_OWNER_EMAIL:-$N8N_RT_DEFAULT_EMAIL} START_OWNER_PASSWORD=${N8N_OWNER_PASSWORD:-$N8N_RT_DEFAULT_PASSWORD} \
	START_STATE_FILE=$user_folder/npm-start.json START_EXAMPLES_DIR=$N8N_RT_PROJECT_DIR/examples \
	run_step node_modules/.bin/tsx scripts/start/provision.ts

say "ready after $((SECONDS - started_at)) s. Press Ctrl-C to stop n8n and the sandbox."
n8n_pid=$(cat "$user_folder/n8n.pid")
sandbox_pid=$(cat "$sandbox_pid_file")
while kill -0 "$n8n_pid" 2>/dev/null && kill -0 "$sandbox_pid" 2>/dev/null; do
	# Whoever started us (npm, a terminal) went away without a signal reaching us: n8n must not outlive it.
	read -r _ _ _ parent _ <"/proc/$$/stat"
	if [[ $parent != "$PPID" ]]; then
		say "the parent process ended"
		exit 143
	fi
	# Waiting on a background sleep lets the INT/TERM traps run at once.
	sleep 1 8>&- &
	wait $! || true
done
kill -0 "$n8n_pid" 2>/dev/null || fail "n8n stopped (log: $user_folder/n8n.log)"
fail "the sandbox stopped (log: $user_folder/sandbox.log)"
