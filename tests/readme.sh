#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# readme.sh BUILD [--update]: the figures README.md shows are what this
# build prints.  Each code block after a line "<!-- readme-check -->" is a
# shell session: lines "$ COMMAND" (continued by a trailing backslash)
# and the output they print.  The commands run in order, in a scratch
# directory that sees the tree's workloads/ and examples, with eevdf-sim
# being BUILD/eevdf-sim; each block must print exactly what it shows.
# --update rewrites the blocks from the build instead (review the diff).
# Prints one line per block and ends with "N passed, M failed".
set -u

BUILD=${1:?usage: readme.sh BUILD [--update]}
UPDATE=${2:-}
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
BUILD=$(cd "$BUILD" && pwd) || exit 2
[ -x "$BUILD/eevdf-sim" ] || {
	echo "readme.sh: no $BUILD/eevdf-sim" >&2
	exit 2
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/work/build" "$tmp/bin" "$tmp/work/ci"
ln -s "$root/workloads" "$tmp/work/workloads"
ln -s "$BUILD/eevdf-sim" "$tmp/bin/eevdf-sim"
ln -s "$BUILD/eevdf-sim" "$tmp/work/build/eevdf-sim"
ln -s "$BUILD/examples" "$tmp/work/build/examples"
# the Python package and its example, with this build's library
mkdir -p "$tmp/work/examples"
ln -s "$root/examples/python" "$tmp/work/examples/python"
ln -s "$root/python" "$tmp/work/python"
ln -s "$BUILD/libeevdf.so.0" "$tmp/work/build/libeevdf.so.0"

python3 - "$root/README.md" "$tmp" "$UPDATE" <<'PY'
import os, re, subprocess, sys

readme, tmp, update = sys.argv[1], sys.argv[2], sys.argv[3] == "--update"
lines = open(readme).read().split("\n")
env = dict(os.environ, PATH=tmp + "/bin:" + os.environ["PATH"])
out, i, passed, failed = [], 0, 0, 0
while i < len(lines):
    out.append(lines[i])
    if lines[i].strip() != "<!-- readme-check -->":
        i += 1
        continue
    i += 1
    while i < len(lines) and not lines[i].strip():   # blank before the block
        out.append(lines[i])
        i += 1
    block = []
    while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
        block.append(lines[i])
        i += 1
    while block and not block[-1].strip():
        i -= 1
        block.pop()
    # commands and what they print
    session, expected, cmd = [], [], None
    for b in block:
        t = b[4:]
        if cmd is not None and cmd.endswith("\\"):
            cmd = cmd + "\n" + t
            session[-1] = cmd
        elif t.startswith("$ "):
            cmd = t[2:]
            session.append(cmd)
        else:
            cmd = ""
            expected.append(t)
    # one shell for the block, so that "$ echo $?" sees the last status
    script = ""
    for k, c in enumerate(session):
        script += "printf '\\n@@readme %d@@\\n'; (exit $__rc)\n%s\n__rc=$?\n" % (k, c)
    r = subprocess.run(["bash", "-c", "__rc=0\n" + script], cwd=tmp + "/work",
                       env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    parts = re.split(r"\n@@readme \d+@@\n", "\n" + r.stdout)[1:]
    got = [(c, p.rstrip("\n").split("\n") if p.rstrip("\n") else [])
           for c, p in zip(session, parts)]
    printed = [l for _, o in got for l in o]
    name = session[0].split("\n")[0][:60] if session else "(empty)"
    if update:
        new = []
        for c, o in got:
            for k, cl in enumerate(c.split("\n")):
                new.append("    " + ("$ " if k == 0 else "") + cl)
            new += [("    " + l).rstrip() for l in o]
        out += new
        print("wrote %s" % name)
    else:
        out += block
        if [e.rstrip() for e in expected] == [p.rstrip() for p in printed]:
            print("ok    %s" % name)
            passed += 1
        else:
            print("FAIL  %s" % name)
            import difflib
            for d in difflib.unified_diff(expected, printed, "README", "build", lineterm="", n=1):
                print("      " + d)
            failed += 1
if update:
    open(readme, "w").write("\n".join(out))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
