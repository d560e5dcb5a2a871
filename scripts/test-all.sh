#!/usr/bin/env bash
# Runs every test: unit and integration tests on the embedded database, the server's integration
# tests again on the local PostgreSQL server, then the end-to-end tests in Chromium against the
# built app. Prints one closing line "N passed, N failed, N skipped".
#
# TEST_COMPAT=1 (what .ci/run sets for its second Node.js line) leaves out the parts whose answer
# does not depend on the Node.js version the suite runs on, which the first line has just run:
# typecheck, lint and format (tsc, eslint and prettier read the source; they give the same answer on
# any Node.js), the server's tests repeated on PostgreSQL (the SQL is the database's; the server's
# code on that Node.js is run by the embedded pass), the two 1 GiB upload tests (the same upload
# path as the smaller upload tests, which do run) and the end-to-end tests once the web app is built
# (what they test runs in Chromium, on a bundle that is the same whichever Node.js built it; the
# server they call runs the same routes that the server's tests call on that Node.js; the build,
# which `npm start` runs too, does run on it).
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
status=0

compat=${TEST_COMPAT:-0}
started=$SECONDS
took() { echo "-- $1: $((SECONDS - $2)) s"; }

if [ "$compat" = 1 ]; then
  echo "== TEST_COMPAT=1: typecheck, lint, format, the PostgreSQL repeat, the 1 GiB uploads and the end-to-end tests left out (see scripts/test-all.sh)"
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
  ws=$(dirname "$config")
  skip=
  # (the server's config takes its exclusions from SERVER_TEST_EXCLUDE: see apps/server/vitest.config.ts)
  [ "$compat" = 1 ] && [ "$ws" = apps/server ] && skip='**/tus-large.test.ts'
  run "$(basename "$ws")" env SERVER_TEST_EXCLUDE="$skip" npx vitest run --root "$ws"
done
[ "$compat" = 1 ] || run server-postgres env TEST_DB=postgres npx vitest run --root apps/server
if [ -f e2e/vitest.config.ts ]; then
  echo "== build web app"
  t=$SECONDS
  npm run build -w @logo-review/web || status=1
  took "build web app" $t
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
