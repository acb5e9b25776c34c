# SPDX-License-Identifier: MIT
"""The library's self-contained SVG plots (eevdf/plot.h) from Python:
the same pictures 'eevdf-sim plot' draws, from your own numbers."""

import ctypes
from ctypes import POINTER, byref, c_char_p, c_void_p

from . import _lib
from ._lib import lib
from .sim import EevdfError, _libc

__all__ = ["lines_svg", "cdf_svg", "ratio_svg", "ratios_of_compare"]


def _opts(title, xlabel, ylabel, logx=False, xrange=None, yrange=None):
    o = _lib.PlotOpts()
    keep = [s.encode() if s else None for s in (title, xlabel, ylabel)]
    o.title, o.xlabel, o.ylabel = keep
    o.logx = logx
    if xrange:
        o.xmin, o.xmax = xrange
    if yrange:
        o.ymin, o.ymax = yrange
    return o, keep


def _take(rc, out):
    if rc < 0:
        raise EevdfError("plot: " + lib.eevdf_strerror(rc).decode())
    try:
        return ctypes.string_at(out.value).decode()
    finally:
        _libc.free(out)


def lines_svg(series, title=None, xlabel=None, ylabel=None, logx=False,
              steps=False, xrange=None, yrange=None):
    """series: {label: [(x, y), ...]} (a y of float("nan") breaks the
    line): an SVG document as a string."""
    o, keep = _opts(title, xlabel, ylabel, logx, xrange, yrange)
    arr = (_lib.PlotSeries * max(len(series), 1))()
    for i, (label, pts) in enumerate(series.items()):
        p = (_lib.PlotPoint * max(len(pts), 1))(*[_lib.PlotPoint(x, y)
                                                   for x, y in pts])
        keep += [label.encode(), p]
        arr[i] = _lib.PlotSeries(keep[-2], p, len(pts), steps, None, 0)
    out = c_void_p()
    return _take(lib.eevdf_plot_lines_svg(byref(o), arr, len(series),
                                          byref(out)), out)


def cdf_svg(samples, title=None, xlabel="latency (us, log)"):
    """samples: {label: [values > 0]}: their CDFs on a log x axis."""
    series = {}
    for label, vals in samples.items():
        v = sorted(vals)
        n = len(v)
        series["%s (%d)" % (label, n)] = [(v[0], 0.0)] + \
            [(x, (i + 1) / n) for i, x in enumerate(v)] if n else []
    return lines_svg(series, title=title, xlabel=xlabel,
                     ylabel="fraction", logx=True, steps=True,
                     yrange=(0.0, 1.0))


def ratio_svg(bars, title=None, xlabel="ratio b/a"):
    """bars: [(label, value, lo, hi, better)]: a ratio chart."""
    o, keep = _opts(title, xlabel, None)
    arr = (_lib.PlotBar * max(len(bars), 1))()
    for i, (label, v, lo, hi, better) in enumerate(bars):
        keep.append(label.encode())
        arr[i] = _lib.PlotBar(keep[-1], v, lo, hi, better)
    out = c_void_p()
    return _take(lib.eevdf_plot_ratio_svg(byref(o), arr, len(bars),
                                          byref(out)), out)


def ratios_of_compare(result):
    """compare()'s (or 'compare --format json''s) figures as ratio_svg()
    bars: each figure's b/a and the per-seed ratios' range."""
    bars = []
    for f in result["figures"]:
        if f["ratio"] is None:
            continue
        per = [b / a for a, b in zip(f["a"]["values"], f["b"]["values"])
               if a != 0]
        bars.append((f["name"], f["ratio"], min(per + [f["ratio"]]),
                     max(per + [f["ratio"]]), f["better"]))
    return bars
