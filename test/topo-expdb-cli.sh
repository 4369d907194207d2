#!/usr/bin/env bash
# topo-expdb-cli.sh - topo-expdb's commands: add and seed create and merge
# a file that show prints; bad files and bad sacct lines are named by file
# and line with exit status 1; usage errors are status 2.
set -uo pipefail
expdb=${TOPO_EXPDB:-./src/sim/topo-expdb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }

# expect STATUS PATTERN ARGS... : that exit status and PATTERN on stderr.
expect() {
	local status=$1 pat=$2
	shift 2
	"$expdb" "$@" > /dev/null 2> "$tmp/err" < /dev/null
	local got=$?
	if [ "$got" -ne "$status" ]; then
		bad "topo-expdb $*: exit $got, expected $status: $(cat "$tmp/err")"
	elif ! grep -qF -- "$pat" "$tmp/err"; then
		bad "topo-expdb $*: stderr lacks '$pat': $(cat "$tmp/err")"
	else
		ok
	fi
}

db=$tmp/sched_topo.expdb

# add: creates the file, merges runs of one key
"$expdb" add "$db" "my job" gpu 2 100 && "$expdb" add "$db" "my job" gpu 2 300 &&
	"$expdb" add "$db" solver cpu 4 50 && ok || bad "add"
head -1 "$db" | grep -qx 'topo-expdb 1' && ok || bad "first line: $(head -1 "$db")"
grep -q $'^my%20job\tgpu\t2\t2\t200\t20000$' "$db" && ok || bad "entry line: $(cat "$db")"

# show: the mean and standard deviation, names unescaped
out=$("$expdb" show "$db") || bad "show failed"
echo "$out" | grep -q '^learned_until 0 (never), 2 entries' && ok || bad "show header: $out"
echo "$out" | grep -Eq '^my job +gpu +2 +2 +200\.0 +141\.4$' && ok || bad "show row: $out"
echo "$out" | grep -Eq '^solver +cpu +4 +1 +50\.0 +0\.0$' && ok || bad "show row 2: $out"

# seed: from stdin and from a file, only whole COMPLETED single-partition jobs
cat > "$tmp/sacct.txt" <<'SACCT'
JobName|User|WCKey|Comment|Partition|NNodes|ElapsedRaw|State
my job|alice|chem||gpu|2|500|COMPLETED
batch|alice|chem||gpu|2|500|COMPLETED
my job|alice|chem||gpu|2|900|FAILED
my job|alice|chem||gpu|2|900|TIMEOUT
my job|alice|chem||gpu|2|900|CANCELLED by 0
my job|alice|chem||gpu,cpu|2|900|COMPLETED
solver|bob|phys||cpu|4|70|COMPLETED
SACCT
out=$("$expdb" seed --key name "$db" < "$tmp/sacct.txt") && ok || bad "seed from stdin"
[ "$out" = "2 runs added to $db" ] && ok || bad "seed output: $out"
grep -q $'^my%20job\tgpu\t2\t3\t300\t40000$' "$db" && ok || bad "seeded merge: $(cat "$db")"
out=$("$expdb" seed --key user --from "$tmp/sacct.txt" "$tmp/by-user") && ok || bad "seed --from"
"$expdb" show "$tmp/by-user" | grep -Eq '^alice +gpu +2 +1 +500\.0' && ok || bad "by user"
"$expdb" show "$tmp/by-user" | grep -Eq '^bob +cpu +4 +1 +70\.0' && ok || bad "by user 2"

# bad input: named by file and line, the file untouched
cp "$db" "$tmp/before"
printf 'x|u|w|c|cpu|2|ten|COMPLETED\n' > "$tmp/bad.sacct"
expect 1 "bad.sacct:1: bad ElapsedRaw 'ten'" seed --key name --from "$tmp/bad.sacct" "$db"
cmp -s "$db" "$tmp/before" && ok || bad "a failed seed changed the file"
printf 'topo-expdb 1\nlearned_until 5\nsolver\tcpu\t0\t1\t5\t0\n' > "$tmp/bad.expdb"
expect 1 "bad.expdb:3: bad node count (a whole number >= 1) '0'" show "$tmp/bad.expdb"
expect 1 "bad.expdb:3:" add "$tmp/bad.expdb" solver cpu 1 5
printf 'topo-expdb 9\nlearned_until 5\n' > "$tmp/v9.expdb"
expect 1 "v9.expdb:1: unsupported version (this reads 1) '9'" show "$tmp/v9.expdb"
expect 1 "$tmp/missing.expdb: No such file" show "$tmp/missing.expdb"
expect 1 "$tmp/no/dir.tmp" add "$tmp/no/dir" a b 1 1

# add and seed keep the file's learned_until mark
printf 'topo-expdb 1\nlearned_until 1764000000\n' > "$tmp/marked.expdb"
"$expdb" add "$tmp/marked.expdb" a b 1 5 && grep -qx 'learned_until 1764000000' "$tmp/marked.expdb" &&
	ok || bad "add lost learned_until: $(cat "$tmp/marked.expdb")"
"$expdb" show "$tmp/marked.expdb" | grep -q '^learned_until 1764000000 (2025-11-24T16:00:00Z), 1 entries' &&
	ok || bad "show learned_until: $("$expdb" show "$tmp/marked.expdb")"

# usage errors
expect 2 "topo-expdb show: FILE is required" show
expect 2 "unknown command 'frob'; valid: show, seed, add" frob
expect 2 "--key: unknown key 'host'; valid: name, user, wckey, comment" seed --key host "$db"
expect 2 "--key name|user|wckey|comment is required" seed "$db"
expect 2 "option '--from' needs a value" seed --key name "$db" --from
expect 2 "--from given twice ('a', then 'b')" seed --key name --from a --from b "$db"
expect 2 "--from needs a value, but '--key' follows it" seed --from --key name "$db"
expect 2 "NODES: not a whole number >= 1: '0'" add "$db" a b 0 5
expect 2 "SECONDS: not a finite number >= 0: '-3'" add "$db" a b 1 -3

echo "topo-expdb-cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
