#!/bin/sh
# Regenerates the committed golden output of the generated Go, Python and Java code
# (packages/builder/test/golden/<fixture>/<language>/) from the templates and the fixtures, then
# runs the same tests to show it is consistent. Review the diff before committing it.
set -eu
cd "$(dirname "$0")/../../.."
UPDATE_GOLDEN=1 npx vitest run packages/builder/test/emit-go.test.ts packages/builder/test/emit-python.test.ts packages/builder/test/emit-java.test.ts -t golden
npx vitest run packages/builder/test/emit-go.test.ts packages/builder/test/emit-python.test.ts packages/builder/test/emit-java.test.ts -t golden
