#!/usr/bin/env bash
# Installs nyzhi as a user would from the registry, and runs it.
#
#   1. Packs every package under packages/ (as `pnpm publish` would: workspace versions filled in).
#   2. Installs the `nyzhi` tarball ALONE into a throw-away npm prefix with an empty npm cache,
#      then, from a folder outside this repository, runs `nyz --version`, `nyz --help`,
#      `nyz doctor`, an offline `nyz exec` in which the lead spawns a subagent (against the
#      scripted mock model on 127.0.0.1), `nyz index` and `nyz index search` on a small folder.
#   3. Installs it again without its optional dependencies (no LanceDB, no keyring): `nyz` still
#      runs, and `nyz index` says what is missing and how to install it.
#   4. Installs `@nyzhi/core` from its tarballs (config, auth, provider, index, core) into a fresh
#      folder and runs the library examples (examples/library) against the mock.
#
# Prints the installed size and package count of each install. Needs the npm registry (the
# dependencies that are not bundled come from it) and a build (`pnpm build`; skipped when
# SMOKE_SKIP_BUILD=1). SMOKE_WORK_DIR keeps the work folder (default: a temp folder, removed).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${SMOKE_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/nyzhi-smoke-XXXXXX")}"
mkdir -p "$work"
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null || true; fi
  if [ -z "${SMOKE_WORK_DIR:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

say() { printf 'smoke: %s\n' "$*" >&2; }
fail() {
  printf 'smoke: FAILED: %s\n' "$*" >&2
  exit 1
}
# Runs a command, failing with its output when it fails.
check() {
  local what="$1"
  shift
  local output
  if ! output="$("$@" 2>&1)"; then fail "$what: $* exited non-zero:"$'\n'"$output"; fi
  printf '%s' "$output"
}
npm_quiet=(--no-audit --no-fund --loglevel=error --update-notifier=false)
# Installed size (MB, as `du` counts it) and package count (every folder with a package.json
# under node_modules, the package itself included) of an install.
measure() {
  local label="$1" modules="$2"
  local size count
  size=$(du -sm "$modules" | cut -f1)
  count=$(find "$modules" -name package.json -path '*/node_modules/*' \
    -not -path '*/node_modules/*/node_modules/*/*/package.json' |
    sed -E 's#/package\.json$##' | grep -E '/node_modules/(@[^/]+/)?[^/@]+$' | sort -u | wc -l)
  say "$label: ${size} MB installed, ${count} packages"
  printf '%s\t%s\t%s\n' "$label" "$size" "$count" >>"$work/sizes.tsv"
}

if [ "${SMOKE_SKIP_BUILD:-}" != 1 ]; then
  say "building (pnpm build)"
  (cd "$repo" && pnpm turbo run build --output-logs=errors-only >/dev/null)
fi

# 1. Pack.
tarballs="$work/tarballs"
mkdir -p "$tarballs"
(cd "$repo" && pnpm -r --filter "./packages/*" pack --pack-destination "$tarballs" >/dev/null)
version=$(node -p "require('$repo/packages/cli/package.json').version")
nyzhi_tgz="$tarballs/nyzhi-$version.tgz"
[ -f "$nyzhi_tgz" ] || fail "pnpm pack made no $nyzhi_tgz"
for tgz in "$tarballs"/*.tgz; do
  listing=$(tar tzf "$tgz")
  grep -qx 'package/LICENSE' <<<"$listing" || fail "$(basename "$tgz") has no LICENSE"
  if grep -q '\.map$' <<<"$listing"; then fail "$(basename "$tgz") carries source maps"; fi
  manifest=$(tar xzf "$tgz" -O package/package.json)
  for field in repository homepage bugs engines publishConfig; do
    node -e "const m=JSON.parse(process.argv[1]); if(!m[process.argv[2]]) process.exit(1)" "$manifest" "$field" ||
      fail "$(basename "$tgz"): package.json has no $field"
  done
done
declared=$(tar xzf "$nyzhi_tgz" -O package/package.json | node -e '
  const m = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const names = ["dependencies", "optionalDependencies", "peerDependencies"].flatMap((k) => Object.keys(m[k] ?? {}));
  console.log(names.filter((name) => name.startsWith("@nyzhi/")).join(" "));')
[ -z "$declared" ] || fail "the nyzhi package declares $declared (its bundle carries them)"
say "packed $(ls "$tarballs" | wc -l) tarballs; nyzhi-$version.tgz is $(du -k "$nyzhi_tgz" | cut -f1) KB"

# The scripted mock model, from this checkout (it is a test tool, not a published package).
mock_scenario="$work/scenario.json"
start_mock() {
  local scenario="$1"
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null || true; fi
  : >"$work/mock.out"
  node "$repo/tools/mock-llm/dist/cli.js" --scenario "$scenario" --quiet >"$work/mock.out" 2>&1 &
  mock_pid=$!
  for _ in $(seq 1 300); do
    mock_url=$(sed -n 's/^mock-llm listening on //p' "$work/mock.out")
    [ -n "$mock_url" ] && return 0
    kill -0 "$mock_pid" 2>/dev/null || fail "the mock model did not start: $(cat "$work/mock.out")"
    sleep 0.1
  done
  fail "the mock model did not start within 30 s"
}

# A small project outside the repository, and a data dir of its own (never the real home).
project="$work/project"
home="$work/home"
mkdir -p "$project/src" "$home/config"
printf 'console.log("hello from the smoke test");\n' >"$project/hello.js"
printf 'export function parseGreeting(text) {\n  return text.split(",");\n}\n' >"$project/src/greeting.js"
printf '# Smoke\n\nA folder for the install smoke test.\n' >"$project/README.md"
run_env=(env -u NYZHI_PROVIDER -u ANTHROPIC_API_KEY -u OPENAI_API_KEY "NYZHI_HOME=$home" "HOME=$home" "npm_config_cache=$work/cache")

# 2. The nyzhi tarball alone, empty prefix, empty cache.
prefix="$work/prefix"
say "installing nyzhi-$version.tgz alone into an empty prefix with an empty cache"
check "npm install" npm install -g --prefix "$prefix" --cache "$work/cache" "${npm_quiet[@]}" "$nyzhi_tgz" >/dev/null
measure "nyz (with optional LanceDB and keyring)" "$prefix/lib/node_modules"
nyz="$prefix/bin/nyz"
[ -x "$nyz" ] || fail "no bin at $nyz"
cd "$project"

out=$(check "nyz --version" "${run_env[@]}" "$nyz" --version)
grep -q "$version" <<<"$out" || fail "nyz --version printed '$out', not $version"
out=$(check "nyz --help" "${run_env[@]}" "$nyz" --help)
grep -q "exec" <<<"$out" || fail "nyz --help does not list exec: $out"
out=$(check "nyz doctor" "${run_env[@]}" "$nyz" doctor)
grep -q "Node" <<<"$out" || fail "nyz doctor did not report Node: $out"
say "nyz --version, --help and doctor ran"

start_mock "$repo/scripts/smoke/exec-scenario.json"
printf '[index]\nembedding = "openai"\nembedding_base_url = "%s/v1"\n' "$mock_url" >"$home/config/config.toml"
mock_env=("NYZHI_PROVIDER=anthropic" "ANTHROPIC_API_KEY=smoke-offline" "ANTHROPIC_BASE_URL=$mock_url/v1" "OPENAI_API_KEY=smoke-offline")
out=$(check "nyz exec" "${run_env[@]}" "${mock_env[@]}" "$nyz" exec --json --ephemeral "What does hello.js print? Ask an explorer.")
grep -q '"type":"subagent_spawned"' <<<"$out" || fail "nyz exec spawned no subagent: $out"
grep -q '"type":"subagent_completed"' <<<"$out" || fail "the subagent did not complete: $out"
grep '"type":"turn_complete"' <<<"$out" | grep -q 'SMOKE-OK' || fail "nyz exec's turn_complete has not the lead's answer: $(tail -n 3 <<<"$out")"
say "nyz exec ran a lead and an explorer against the mock"

check "nyz index" "${run_env[@]}" "${mock_env[@]}" "$nyz" index >/dev/null
out=$(check "nyz index search" "${run_env[@]}" "${mock_env[@]}" "$nyz" index search "parse the greeting")
grep -q "greeting.js" <<<"$out" || fail "nyz index search did not find src/greeting.js: $out"
say "nyz index built the index and nyz index search found src/greeting.js"
cd "$work"

# 3. Without the optional dependencies. npm ignores --omit with --global and a tarball
# (npm/cli#8284), so this install is a local one: the same tree, under node_modules/.
bare="$work/no-optional"
mkdir -p "$bare"
printf '{ "name": "nyzhi-smoke-no-optional", "private": true }\n' >"$bare/package.json"
say "installing nyzhi-$version.tgz without optional dependencies"
check "npm install --omit=optional" npm install --prefix "$bare" --cache "$work/cache" --omit=optional "${npm_quiet[@]}" "$nyzhi_tgz" >/dev/null
measure "nyz (without optional dependencies: no code index, no keyring)" "$bare/node_modules"
[ ! -d "$bare/node_modules/@lancedb" ] || fail "--omit=optional still installed LanceDB"
bare_nyz="$bare/node_modules/.bin/nyz"
cd "$project"
check "nyz --version (no optional)" "${run_env[@]}" "$bare_nyz" --version >/dev/null
rm -rf "$home/data" "$home/cache"
set +e
out=$("${run_env[@]}" "${mock_env[@]}" "$bare_nyz" index 2>&1)
code=$?
set -e
[ "$code" -eq 1 ] || fail "nyz index without LanceDB exited $code (expected 1): $out"
grep -q "needs LanceDB" <<<"$out" && grep -q "npm install -g nyzhi --include=optional" <<<"$out" ||
  fail "nyz index without LanceDB did not say how to install it: $out"
out=$(check "nyz doctor (no optional)" "${run_env[@]}" "$bare_nyz" doctor)
grep -q "LanceDB" <<<"$out" || fail "nyz doctor did not mention the missing LanceDB: $out"
say "without optional dependencies nyz runs, and nyz index says how to install LanceDB"
cd "$work"

# 4. The library, from its tarballs, with the examples.
library="$work/library"
mkdir -p "$library"
printf '{ "name": "nyzhi-smoke-library", "private": true, "type": "module" }\n' >"$library/package.json"
say "installing @nyzhi/core from its tarballs into a fresh folder"
check "npm install @nyzhi/core" npm install --prefix "$library" --cache "$work/cache" "${npm_quiet[@]}" \
  "$tarballs/nyzhi-config-$version.tgz" "$tarballs/nyzhi-auth-$version.tgz" \
  "$tarballs/nyzhi-provider-$version.tgz" "$tarballs/nyzhi-index-$version.tgz" \
  "$tarballs/nyzhi-core-$version.tgz" >/dev/null
measure "@nyzhi/core (its five tarballs, no LanceDB)" "$library/node_modules"
examples="$repo/examples/library"
[ -d "$examples/dist" ] || fail "the library examples are not built ($examples/dist): run pnpm build"
cp "$examples"/dist/*.js "$library/"
printf '# greet\n\nA small greeting library.\n\nUsage: greet(name).\n' >"$library/README.md"
cd "$library"
for example in "$library"/*.js; do
  name=$(basename "$example" .js)
  start_mock "$examples/scenarios/$name.json"
  out=$(check "example $name" "${run_env[@]}" "NYZHI_CREDENTIAL_STORE=file" "NYZHI_PROVIDER=anthropic" \
    "ANTHROPIC_API_KEY=smoke-offline" "ANTHROPIC_BASE_URL=$mock_url/v1" node "$example")
  grep -q "(scripted answer)" <<<"$out" || fail "example $name did not finish: $out"
  say "example $name ran"
done
cd "$work"

say "all passed"
cat "$work/sizes.tsv"
