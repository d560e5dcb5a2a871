#!/usr/bin/env bash
# Runs every test: unit and integration tests on the embedded database, the server's integration
# tests again on the local PostgreSQL server, then the end-to-end tests in Chromium against the
# built app. Prints one closing line "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
status=0

echo "== typecheck, lint, format"
npm run --silent typecheck || status=1
npx eslint . || status=1
npx prettier --check . >/dev/null || { echo "prettier: files need formatting (npm run format)"; status=1; }

run() { # name, then the command
  local name=$1; shift
  echo "== $name"
  if ! "$@" --reporter=default --reporter=json --outputFile="$out/$name.json"; then status=1; fi
}

# Each workspace with a vitest.config.ts runs its own tests (the server's on the embedded database).
for config in packages/*/vitest.config.ts apps/*/vitest.config.ts; do
  ws=$(dirname "$config")
  run "$(basename "$ws")" npx vitest run --root "$ws"
done
run server-postgres env TEST_DB=postgres npx vitest run --root apps/server
if [ -f e2e/vitest.config.ts ]; then
  echo "== build web app"
  npm run build -w @logo-review/web || status=1
  run e2e npx vitest run --config e2e/vitest.config.ts
fi

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
