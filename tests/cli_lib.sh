# SPDX-License-Identifier: MIT
# cli_lib.sh: what the CLI test scripts share.  Source it after setting
# SIM (the eevdf-sim binary); it makes $tmp (removed at exit), counts
# ok/bad lines, and defines sim, crash, expect_error, expect_ok and
# leftovers.  The script ends with finish.

if [ ! -x "$SIM" ]; then
	echo "$(basename "$0"): $SIM is not an executable" >&2
	exit 2
fi

pass=0
fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok    $1"; pass=$((pass + 1)); }
bad() { echo "FAIL  $1: $2"; fail=$((fail + 1)); }

# Run the simulator; stdout to $tmp/out, stderr to $tmp/err, status in rc.
rc=0
sim() {
	"$SIM" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# Why the last run looks like a crash or a sanitizer finding; "" if clean.
# A status of 128 or more is death by a signal (SEGV, ABRT from UBSan).
crash() {
	if [ "$rc" -ge 128 ]; then
		echo "killed by signal $((rc - 128))"
	elif grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer|core dumped' \
		"$tmp/err"; then
		echo "sanitizer report: $(grep -Em1 'runtime error|Sanitizer' "$tmp/err")"
	fi
}

# expect_error NAME NEEDLE ARGS...: exit 2, stderr non-empty and holding
# NEEDLE (a fixed string: the file, JSON path or name at fault).
expect_error() {
	local name=$1 needle=$2 why
	shift 2
	sim "$@"
	why=$(crash)
	if [ -n "$why" ]; then
		bad "$name" "$why"
	elif [ "$rc" -ne 2 ]; then
		bad "$name" "exit $rc, expected 2"
	elif [ ! -s "$tmp/err" ]; then
		bad "$name" "nothing on stderr"
	elif ! grep -qF -- "$needle" "$tmp/err"; then
		bad "$name" "stderr does not name '$needle': $(head -c 300 "$tmp/err")"
	else
		ok "$name"
	fi
}

# expect_ok NAME ARGS...: exit 0 and no crash; the caller checks output.
expect_ok() {
	local name=$1 why
	shift
	sim "$@"
	why=$(crash)
	if [ -n "$why" ]; then
		bad "$name" "$why"
		return 1
	elif [ "$rc" -ne 0 ]; then
		bad "$name" "exit $rc: $(head -c 300 "$tmp/err")"
		return 1
	fi
	return 0
}

# True when FILE or any FILE.tmp.* leftover exists.
leftovers() {
	compgen -G "$1.tmp.*" >/dev/null || [ -e "$1" ]
}

# The closing line and the exit status.
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# run_ok NAME ARGS...: expect_ok, and an ok line when it is.
run_ok() {
	local name=$1
	shift
	expect_ok "$name" "$@" && ok "$name"
}
