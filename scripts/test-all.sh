#!/usr/bin/env bash
# Runs every test: unit and integration tests on the embedded database, the server's integration
# tests again on the local PostgreSQL server, then the end-to-end tests in Chromium against the
# built app. Prints one closing line "N passed, N failed, N skipped".
#
# TEST_SERVER_DB says which databases the server's tests run on: `both` (the default: the embedded
# database, then again on the local PostgreSQL server), `embedded` or `postgres`. .ci/run runs
# them on each database once, on one Node.js line each (embedded on 24, PostgreSQL on 20), so
# that each Node.js runs the whole server suite and each database gets the whole server suite.
#
# TEST_PART says which part of the suite runs: `all` (the default), `no-e2e` (everything but the
# end-to-end tests) or `e2e` (those alone; their global setup builds the web app privately). .ci/run
# runs the Node.js 24 end-to-end tests beside the Node.js 20 line: they drive one browser against
# one server and leave part of the machine idle.
#
# TEST_COMPAT=1 (what .ci/run sets for its second Node.js line) leaves out the parts whose answer
# does not depend on the Node.js version the suite runs on, which the first line has just run:
# typecheck, lint and format (tsc, eslint and prettier read the source; they give the same answer on
# any Node.js), the two 1 GiB upload tests (the same upload path as the smaller upload tests, which
# do run) and the end-to-end tests once the web app is built (what they test runs in Chromium, on a
# bundle that is the same whichever Node.js built it; the server they call runs the same routes
# that the server's tests call on that Node.js; the build, which `npm start` runs too, does run on
# it).
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
status=0

compat=${TEST_COMPAT:-0}
server_db=${TEST_SERVER_DB:-both}
case "$server_db" in
  both | embedded | postgres) ;;
  *) echo "TEST_SERVER_DB must be both, embedded or postgres (got '$server_db')"; exit 2 ;;
esac
part=${TEST_PART:-all}
case "$part" in
  all | no-e2e | e2e) ;;
  *) echo "TEST_PART must be all, no-e2e or e2e (got '$part')"; exit 2 ;;
esac
started=$SECONDS
took() { echo "-- $1: $((SECONDS - $2)) s"; }

if [ "$part" = e2e ]; then
  : # the end-to-end tests alone, below
elif [ "$compat" = 1 ]; then
  echo "== TEST_COMPAT=1: typecheck, lint, format, the 1 GiB uploads and the end-to-end tests left out (see scripts/test-all.sh)"
else
  echo "== typecheck, lint, format"
  t=$SECONDS
  npm run --silent typecheck || status=1
  npx eslint . || status=1
  npx prettier --check . >/dev/null || { echo "prettier: files need formatting (npm run format)"; status=1; }
  took "typecheck, lint, format" $t
fi

run() { # name, then the command
  local name=$1; shift
  local t=$SECONDS
  echo "== $name"
  if ! "$@" --reporter=default --reporter=json --outputFile="$out/$name.json"; then status=1; fi
  took "$name" $t
}

# Each workspace with a vitest.config.ts runs its own tests (the server's on the embedded database).
for config in packages/*/vitest.config.ts apps/*/vitest.config.ts; do
  [ "$part" = e2e ] && break
  ws=$(dirname "$config")
  skip=
  # (the server's config takes its exclusions from SERVER_TEST_EXCLUDE: see apps/server/vitest.config.ts)
  if [ "$ws" = apps/server ]; then
    [ "$compat" = 1 ] && skip='**/tus-large.test.ts'
    [ "$server_db" = postgres ] && continue
  fi
  run "$(basename "$ws")" env SERVER_TEST_EXCLUDE="$skip" npx vitest run --root "$ws"
done
if [ "$server_db" != embedded ] && [ "$part" != e2e ]; then
  skip=
  [ "$compat" = 1 ] && skip='**/tus-large.test.ts'
  run server-postgres env TEST_DB=postgres SERVER_TEST_EXCLUDE="$skip" npx vitest run --root apps/server
fi
if [ "$part" != e2e ]; then
  echo "== build web app"
  t=$SECONDS
  npm run build -w @logo-review/web || status=1
  took "build web app" $t
fi
if [ "$part" != no-e2e ] && [ -f e2e/vitest.config.ts ]; then
  if [ "$compat" = 1 ]; then
    echo "== e2e: left out (TEST_COMPAT=1)"
  else
    run e2e npx vitest run --config e2e/vitest.config.ts
  fi
fi
took "all" $started

node -e '
const fs = require("fs"), path = require("path");
let p = 0, f = 0, s = 0;
for (const file of fs.readdirSync(process.argv[1])) {
  const r = JSON.parse(fs.readFileSync(path.join(process.argv[1], file), "utf8"));
  p += r.numPassedTests; f += r.numFailedTests + (r.numFailedTestSuites && !r.numFailedTests ? r.numFailedTestSuites : 0);
  s += r.numPendingTests + r.numTodoTests;
  for (const suite of r.testResults ?? []) {
    if (suite.status === "failed" && !suite.assertionResults?.some((a) => a.status === "failed"))
      console.log(`FAILED ${file.replace(/\.json$/, "")} ${path.basename(suite.name)}: ${String(suite.message).split("\n")[0]}`);
    for (const a of suite.assertionResults ?? [])
      if (a.status === "failed")
        console.log(`FAILED ${file.replace(/\.json$/, "")} ${path.basename(suite.name)} > ${a.fullName}: ${String(a.failureMessages?.[0] ?? "").split("\n")[0]}`);
  }
}
console.log(`${p} passed, ${f} failed, ${s} skipped`);
' "$out"
rm -rf "$out"
exit $status
