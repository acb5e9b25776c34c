#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/bench_ab.sh: bench/ab.sh on two stand-in benches that write the
# JSON layout eevdf-bench writes, with CPU times they take from a list,
# so that every median and ratio below is worked out by hand.
set -u
cd "$(dirname "$0")/.."
ab=bench/ab.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() {
	echo "ok    $1"
	pass=$((pass + 1))
}
bad() {
	echo "FAIL  $1"
	fail=$((fail + 1))
}

# fake NAME DIGEST T1 T2 T3: a bench whose k-th run reports Tk CPU
# seconds, 100 events and DIGEST, for whatever --only it is given.
fake() {
	local f=$tmp/$1
	printf '%s\n' "$3" "$4" "$5" >"$f.times"
	cat >"$f" <<EOF
#!/bin/bash
json= only=
while [ \$# -gt 0 ]; do
	case "\$1" in
	--json) json=\$2; shift 2 ;;
	--only) only=\$2; shift 2 ;;
	--runs) shift 2 ;;
	*) shift ;;
	esac
done
[ "\$only" = x ] || { echo "no scenario '\$only'" >&2; exit 1; }
n=\$(( \$(cat "$f.count" 2>/dev/null || echo 0) + 1 ))
echo \$n >"$f.count"
echo $1 >>"$tmp/order"
t=\$(sed -n "\${n}p" "$f.times")
printf '{\n\t"format": "eevdf-bench/1",\n\t"scenarios": [\n\t\t{\n' >"\$json"
printf '\t\t\t"name": "x",\n\t\t\t"status": "ok",\n' >>"\$json"
printf '\t\t\t"events": 100,\n\t\t\t"wall_s": 9,\n' >>"\$json"
printf '\t\t\t"cpu_s": %s,\n' "\$t" >>"\$json"
printf '\t\t\t"results_digest": "$2"\n\t\t}\n\t]\n}\n' >>"\$json"
EOF
	chmod +x "$f"
}

# Pairs: OLD then NEW, NEW then OLD, OLD then NEW; each bench's k-th run
# is in its k-th pair.  Ratios OLD/NEW: 2/1, 4/2, 3/1 = 2, 2, 3: median
# 2, lowest 2, highest 3; OLD's median of 2, 4, 3 is 3, NEW's of 1, 2, 1
# is 1.
fake old abc 2.0 4.0 3.0
fake new abc 1.0 2.0 1.0
out=$($ab --pairs 3 "$tmp/old" "$tmp/new" x)
rc=$?
row=$(printf '%s\n' "$out" | awk '$1 == "x"')
if [ $rc -eq 0 ] && [ "$(echo $row)" = \
	"x cpu 3.0000 1.0000 2.000x 2.000x 3.000x" ]; then
	ok "medians and ratios of three alternating pairs"
else
	bad "medians and ratios: rc $rc, row '$row'"
fi
order=$(echo $(cat "$tmp/order"))
if [ "$order" = "old new new old old new" ]; then
	ok "each bench runs once a pair, first in turn"
else
	bad "run order: '$order'"
fi

# A NEW that simulates something else: flagged, exit 1.
fake old2 abc 1 1 1
fake new2 def 1 1 1
out=$($ab --pairs 1 "$tmp/old2" "$tmp/new2" x)
rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "different work"; then
	ok "a results digest that differs is flagged, exit 1"
else
	bad "digest differs: rc $rc, output '$out'"
fi

# Bad input: exit 2 and a message naming what is wrong.
err=$($ab --pairs 0 "$tmp/old" "$tmp/new" x 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$err" == *"--pairs: 0 is not in 1..100"* ]] &&
	ok "--pairs 0 is refused" || bad "--pairs 0: '$err'"
err=$($ab "$tmp/old" "$tmp/none" x 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$err" == *"$tmp/none: not an executable"* ]] &&
	ok "a missing bench is named" || bad "missing bench: '$err'"
fake old3 abc 1 1 1
err=$($ab --pairs 1 "$tmp/old3" "$tmp/old3" y 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$err" == *"--only y failed"* ]] &&
	ok "a scenario the bench does not have is named" ||
	bad "unknown scenario: '$err'"
err=$($ab "$tmp/old" "$tmp/new" 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ "$err" == usage:* ]] &&
	ok "no scenario: usage" || bad "no scenario: '$err'"

# bench/compare.sh names what built each file: git, compiler, and
# whether the build was profile-guided (a "profile_guided": true line).
meta_json() { # FILE GIT PGO
	printf '{\n\t"format": "eevdf-bench/1",\n\t"git": "%s",\n' "$2" >"$1"
	printf '\t"compiler": "gcc 12",\n\t"profile_guided": %s,\n' "$3" >>"$1"
	printf '\t"scenarios": [\n\t]\n}\n' >>"$1"
}
meta_json "$tmp/m1.json" aaa false
meta_json "$tmp/m2.json" bbb true
out=$(bench/compare.sh "$tmp/m1.json" "$tmp/m2.json" 2>/dev/null)
if [[ "$out" == *"# OLD: $tmp/m1.json (aaa, gcc 12)"* ]] &&
	[[ "$out" == *"# NEW: $tmp/m2.json (bbb, gcc 12, profile-guided)"* ]]; then
	ok "compare.sh names each file's build, profile-guided or not"
else
	bad "compare.sh header: '$out'"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
