#!/usr/bin/env bash
# The compatibility matrix: type-checks the package and runs the whole unit suite on each n8n-core/n8n-workflow
# pair of scripts/compat/versions.json. Each pair is installed once into .compat/<name>/ (ignored by git).
#   npm run test:compat                  every pair
#   npm run test:compat -- n8n-1.123     only the named pairs
#   COMPAT_SKIP_INSTALLED=1 npm run test:compat   all but the devDependencies pair (CI runs that one as npm test)
#   COMPAT_INSTALL_ONLY=1 bash scripts/compat/run.sh   only install the pairs (no build, no test: .ci/run does this
#                                        while the unit suite runs)
#   COMPAT_SKIP_BUILD=1 npm run test:compat   test the dist/ that is there (.ci/run: npm test built it)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
versions=./scripts/compat/versions.json
wanted=("$@")

names=$(node -e 'for (const p of require(process.argv[1]).pairs) console.log(p.name)' "$versions")
summary=()
status=0
install_only=${COMPAT_INSTALL_ONLY:-}
if [ -z "$install_only" ] && [ -z "${COMPAT_SKIP_BUILD:-}" ]; then npm run --silent build >/dev/null; fi

for name in $names; do
	if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
	read -r installed core workflow < <(node -e 'const p = require(process.argv[1]).pairs.find((p) => p.name === process.argv[2]); console.log(p.installed ? "yes" : "no", p["n8n-core"] ?? "-", p["n8n-workflow"] ?? "-")' "$versions" "$name")
	if [ "$installed" = yes ] && [ "${COMPAT_SKIP_INSTALLED:-}" = 1 ]; then continue; fi
	started=$(date +%s)
	dir=""
	if [ "$installed" = no ]; then
		dir=".compat/$name"
		if [ "$(node -p "try { require('./$dir/node_modules/n8n-core/package.json').version } catch { '' }")" != "$core" ] ||
			[ "$(node -p "try { require('./$dir/node_modules/n8n-workflow/package.json').version } catch { '' }")" != "$workflow" ]; then
			echo "== $name: installing n8n-core@$core n8n-workflow@$workflow into $dir"
			rm -rf "$dir" && mkdir -p "$dir"
			printf '{"name":"compat-%s","private":true,"dependencies":{"n8n-core":"%s","n8n-workflow":"%s"}}\n' "$name" "$core" "$workflow" >"$dir/package.json"
			(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
		fi
		core_version=$core
	else
		core_version=$(node -p "require('n8n-core/package.json').version")
	fi

	if [ -n "$install_only" ]; then continue; fi
	echo "== $name: type-check against n8n-workflow ${workflow/-/$(node -p "require('n8n-workflow/package.json').version")}"
	tsconfig=$(mktemp "$root/.compat/tsconfig.XXXXXX.json")
	if [ -n "$dir" ]; then
		printf '{"extends":"../tsconfig.json","compilerOptions":{"noEmit":true,"declaration":false,"incremental":false,"baseUrl":"..","paths":{"n8n-workflow":["%s/node_modules/n8n-workflow"],"n8n-core":["%s/node_modules/n8n-core"]}},"include":["../credentials/**/*","../nodes/**/*","../nodes/**/*.json","../package.json"]}\n' "$dir" "$dir" >"$tsconfig"
	else
		printf '{"extends":"../tsconfig.json","compilerOptions":{"noEmit":true,"declaration":false,"incremental":false},"include":["../credentials/**/*","../nodes/**/*","../nodes/**/*.json","../package.json"]}\n' >"$tsconfig"
	fi
	typed=pass
	npx tsc -p "$tsconfig" || typed=FAIL
	rm -f "$tsconfig"

	echo "== $name: unit suite on n8n-core $core_version"
	tested=pass
	# A run that hangs (a timer n8n leaves running) must not hold CI: 20 minutes is ten times a normal run.
	AWEBER_COMPAT_DIR="$dir" AWEBER_COMPAT_EXPECT_CORE="$core_version" timeout --kill-after=30 1200 npx jest --ci || tested=FAIL
	summary+=("$name (n8n-core $core_version): type-check $typed, unit suite $tested, $(($(date +%s) - started)) s")
	if [ "$typed" != pass ] || [ "$tested" != pass ]; then status=1; fi
done

if [ -n "$install_only" ]; then exit 0; fi
echo
echo "Compatibility matrix:"
printf '  %s\n' "${summary[@]}"
exit $status
