# SPDX-License-Identifier: MIT
"""A PEP 517 build backend that is setuptools', found on the system.

pip builds a pyproject.toml project in an isolated environment and
installs its build requirements there from an index: offline that fails.
This backend requires nothing to be installed: it imports setuptools and
wheel from where the system keeps them (Debian's python3-setuptools and
python3-wheel are in /usr/lib/python3/dist-packages), asks pip for
nothing more, and hands every hook to setuptools.build_meta.  The
package is pure Python, so which setuptools builds it does not matter.
"""

import os
import sys


def _importable():
    try:
        import setuptools.build_meta as bm
        import wheel  # noqa: F401  (setuptools < 70 builds wheels with it)
        return bm
    except ImportError:
        return None


def _setuptools():
    """The interpreter's own site-packages first (its setuptools suits it),
    then Debian's dist-packages (python3-setuptools, python3-wheel; the
    wheel package is pure Python and serves any setuptools)."""
    bm = _importable()
    if bm:
        return bm
    v = "%d.%d" % sys.version_info[:2]
    dirs = [os.path.join(sys.base_prefix, "lib", "python" + v,
                         "site-packages"),
            "/usr/local/lib/python%s/dist-packages" % v,
            "/usr/lib/python3/dist-packages"]
    for d in dirs:
        if os.path.isdir(d) and d not in sys.path:
            sys.path.append(d)
            bm = _importable()
            if bm:
                return bm
    raise ImportError("building eevdf needs setuptools and wheel, and they "
                      "are not installed (Debian: apt-get install "
                      "python3-setuptools python3-wheel)")


_bm = _setuptools()


def __getattr__(name):
    return getattr(_bm, name)


def get_requires_for_build_wheel(config_settings=None):
    """Nothing to fetch: what the build needs was found above."""
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


prepare_metadata_for_build_wheel = _bm.prepare_metadata_for_build_wheel
build_wheel = _bm.build_wheel
build_sdist = _bm.build_sdist
