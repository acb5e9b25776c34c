# SPDX-License-Identifier: MIT
"""The eevdf package's tests run against the build tree: the package from
python/, libeevdf.so from $EEVDF_LIB (else build/), eevdf-sim from
$EEVDF_SIM (else build/eevdf-sim), the shipped workloads from the tree.
"""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("EEVDF_LIB",
                      os.path.join(ROOT, "build", "libeevdf.so.0"))
SIM = os.environ.get("EEVDF_SIM", os.path.join(ROOT, "build", "eevdf-sim"))


def workload(name):
    return os.path.join("workloads", name)


@pytest.fixture(autouse=True)
def in_root(monkeypatch):
    """Paths as the CLI sees them: from the source tree's root."""
    monkeypatch.chdir(ROOT)


def cli(*args):
    """eevdf-sim's output for args; fails the test on a non-zero exit."""
    p = subprocess.run([SIM] + list(args), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


def cli_json(*args):
    return json.loads(cli(*args))
