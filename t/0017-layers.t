#!/bin/sh
# 0017-layers.t - the layering of docs/ARCHITECTURE.md holds in the code: scripts/cycles
# finds no forbidden dependency cycle, and every dependency between folders is one the
# page's table "Which folder may use which" allows; the check itself reports a use the
# table forbids, a use from a file a restricted row does not name, a folder with no row,
# a row with no sources, and a page without the table.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight CMD:nm CMD:cc CMD:git
plan 9

cd "$TOP" || exit 1
run_cmd scripts/cycles
is "$rc:$out" "0:no cycles" "layers-1.1 no dependency cycle between folders or among analysis/ files"
run_cmd scripts/cycles --layers
is "$rc" 0 "layers-1.2 every dependency between folders is one the table allows" || echo "$out" | sed 's/^/#   /'

D="$TMP/ARCHITECTURE.md"
# edit SED - a copy of the page with one change; the check of the tree against it
edit() { sed "$1" docs/ARCHITECTURE.md > "$D"; run_cmd scripts/cycles --layers "$D"; }

edit 's/^  | `reports\/` | `lib\/` |$/  | `reports\/` | nothing |/'
like "$rc:$out" '^1:not allowed: reports/[a-z_]* -> lib/[a-z_]* [(]reports/ may not use lib/[)]' \
	"layers-2.1 a use the table does not allow is named, with the files on both sides"
edit 's/(`inject.c` only/(`st_compare.c` only/'
like "$rc:$out" '^1:not allowed: bench/selftest/inject -> app/[a-z]* [(]bench/selftest/ may use app/ only from st_compare.c[)]' \
	"layers-2.2 a restricted row allows the use only from the files it names"
edit '/^  | `ci\/` |/d'
like "$rc:$out" '^1:not allowed: ci/[a-z_]* -> lib/[a-z_]* [(]folder ci/ has no row in the table[)]' \
	"layers-2.3 a folder without a row may use nothing"
edit 's/^  | `lib\/` | nothing |$/&\n  | `gone\/` | `lib\/` |/'
is "$rc:$out" "1:the table names gone/, which has no sources" "layers-2.4 a row for a folder with no sources is reported"
edit '/Which folder may use which/,/^$/d'
like "$rc:$err" "^[1-9][0-9]*:cycles: .*: no table \"Which folder may use which\"" "layers-2.5 a page without the table is an error, not a pass"
run_cmd scripts/cycles --layers "$TMP/none.md"
like "$rc:$out$err" "^[1-9][0-9]*:cycles: .*none.md: No such file" "layers-2.6 a missing page is an error, not a pass"

# an object left in build/obj by a file renamed or removed since the build is not the tree's: a scratch
# tree where a/x.c uses b/y.c and a z() it no longer has, which a stale b/gone.o (no b/gone.c) defines
# calling x(): a cycle a/x <-> b/gone if the stale object counted
S="$TMP/tree"
mkdir -p "$S/a" "$S/b" "$S/build/obj/a" "$S/build/obj/b"
printf 'int y(void), z(void);\nint x(void) { return y() + z(); }\n' > "$S/a/x.c"
printf 'int y(void) { return 1; }\n' > "$S/b/y.c"
printf 'int x(void);\nint z(void) { return x(); }\n' > "$S/build/gone.c"
( cd "$S" && git init -q && git add a b && cc -c -o build/obj/a/x.o a/x.c && cc -c -o build/obj/b/y.o b/y.c &&
  cc -c -o build/obj/b/gone.o build/gone.c ) || echo "# scratch tree not built"
run_cmd sh -c "cd '$S' && '$TOP/scripts/cycles' --all"
is "$rc:$out" "0:no cycles" "layers-3.1 a stale object (its source renamed or removed) makes no cycle"
