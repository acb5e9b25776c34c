# SPDX-License-Identifier: MIT
"""libeevdf through ctypes: finding the shared library, and copies of the
public structs and prototypes this package uses.

Where libeevdf.so is looked for, in order:

1. ``$EEVDF_LIB``: the path of the library file itself;
2. the build tree this package sits in (``python/../build/libeevdf.so.0``,
   when it is imported from a checkout);
3. ``pkg-config --variable=libdir eevdf`` (``make install`` writes eevdf.pc);
4. the dynamic linker's search (``ctypes.util.find_library("eevdf")``, so
   /usr/local/lib after ``sudo make install``);
5. ``~/.local/lib`` (``make install PREFIX=$HOME/.local``).

Every struct here mirrors one of include/eevdf/*.h field for field; at load
time each mirror's size is checked against eevdf_abi_sizeof(), so a library
whose structs changed is refused with a message instead of misread.
"""

import ctypes
import ctypes.util
import os
import shutil
import subprocess
from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char_p,
                    c_double, c_int, c_int64, c_size_t, c_uint, c_uint64,
                    c_void_p)

time_t = c_int64

TRACE_FN = CFUNCTYPE(None, c_void_p, c_void_p)
OPT_FN = CFUNCTYPE(c_char_p, c_void_p, c_char_p)


class Config(Structure):
    _fields_ = [("name", c_char_p), ("seed", c_uint64),
                ("machine", c_void_p), ("nr_cpus", c_int), ("hz", c_int),
                ("kernel", c_char_p), ("feat_on", c_uint64),
                ("feat_off", c_uint64), ("base_slice", time_t),
                ("rt_runtime", time_t), ("rt_period", time_t),
                ("rr_timeslice", time_t), ("fair_server_runtime", time_t),
                ("fair_server_period", time_t), ("autogroup", c_int),
                ("duration", time_t), ("check_invariants", c_bool),
                ("trace", TRACE_FN), ("trace_ud", c_void_p),
                ("allow_absent_features", c_bool)]


class TraceEvent(Structure):
    _fields_ = [("kind", c_int), ("time", time_t), ("cpu", c_int),
                ("pid", c_int), ("prev_pid", c_int), ("prev_state", c_int),
                ("orig_cpu", c_int), ("duration", time_t), ("rule", c_int),
                ("pick_pid", c_int), ("pick_rule", c_int),
                ("group", c_char_p)]


class TaskStats(Structure):
    _fields_ = [("name", c_char_p), ("pid", c_int), ("cpu", c_int),
                ("nice", c_int), ("policy", c_int), ("state", c_int),
                ("cpu_ns", time_t), ("wait_ns", time_t),
                ("sleep_ns", time_t), ("switches", c_uint64),
                ("voluntary", c_uint64), ("involuntary", c_uint64),
                ("migrations", c_uint64), ("yields", c_uint64),
                ("delay_count", c_uint64), ("delay_sum_ns", time_t),
                ("delay_max_ns", time_t), ("delay_max_at", time_t),
                ("rt_priority", c_uint), ("dl_runtime", time_t),
                ("dl_deadline", time_t), ("dl_period", time_t),
                ("cgroup", c_char_p)]


class Headline(Structure):
    _fields_ = [("name", c_char_p), ("unit", c_char_p), ("better", c_int),
                ("value", c_double)]


class RunInfo(Structure):
    _fields_ = [("head", POINTER(Headline)), ("nr_head", c_size_t),
                ("complete", c_int), ("incomplete", c_char_p),
                ("tool", c_char_p), ("git", c_char_p),
                ("argv", POINTER(c_char_p)), ("argc", c_size_t),
                ("workload_path", c_char_p), ("workload_sha256", c_char_p),
                ("duration_param", c_char_p),
                ("param_names", POINTER(c_char_p)),
                ("param_values", POINTER(c_char_p)),
                ("nr_params", c_size_t)]


class Diag(Structure):
    _fields_ = [("file", ctypes.c_char * 256), ("path", ctypes.c_char * 320),
                ("line", c_int), ("msg", ctypes.c_char * 256)]


class LoadOpts(Structure):
    _fields_ = [("params", POINTER(c_char_p)), ("nr_params", c_size_t),
                ("ncpus", c_int), ("nllc", c_int), ("input", c_int),
                ("errors", POINTER(Diag)), ("max_errors", c_size_t),
                ("nr_errors", POINTER(c_size_t)), ("duration", time_t)]


class EntityState(Structure):
    _fields_ = [("pid", c_int), ("cpu", c_int), ("group", c_char_p),
                ("my_group", c_char_p), ("fair", c_bool), ("on_rq", c_bool),
                ("running", c_bool), ("delayed", c_bool),
                ("eligible", c_bool), ("protected_slice", c_bool),
                ("custom_slice", c_bool), ("next_buddy", c_bool),
                ("eevdf", c_bool), ("depth", c_int), ("weight", c_uint64),
                ("vruntime", c_uint64), ("deadline", c_uint64),
                ("vprot", c_uint64), ("slice", c_uint64), ("V", c_uint64),
                ("vlag", c_int64), ("lag", c_int64),
                ("deadline_v", c_int64), ("sum_exec_runtime", c_uint64),
                ("curr_exec_ns", time_t)]


class RqState(Structure):
    _fields_ = [("cpu", c_int), ("curr_pid", c_int),
                ("fair_curr_pid", c_int), ("next_pid", c_int),
                ("eevdf", c_bool), ("nr_running", c_uint),
                ("nr_queued", c_uint), ("h_nr_queued", c_uint),
                ("h_nr_runnable", c_uint), ("nr_delayed", c_uint),
                ("V", c_uint64), ("v0", c_uint64), ("load", c_uint64),
                ("min_slice", c_uint64), ("clock", time_t)]


class PickLevel(Structure):
    _fields_ = [("group", c_char_p), ("pid", c_int),
                ("picked_group", c_char_p), ("rule", c_int)]


class PlotOpts(Structure):
    _fields_ = [("title", c_char_p), ("xlabel", c_char_p),
                ("ylabel", c_char_p), ("logx", c_bool), ("width", c_int),
                ("height", c_int), ("xmin", c_double), ("xmax", c_double),
                ("ymin", c_double), ("ymax", c_double)]


class PlotPoint(Structure):
    _fields_ = [("x", c_double), ("y", c_double)]


class PlotMark(Structure):
    _fields_ = [("x", c_double), ("y", c_double), ("label", c_char_p)]


class PlotSeries(Structure):
    _fields_ = [("label", c_char_p), ("pts", POINTER(PlotPoint)),
                ("n", c_size_t), ("steps", c_bool),
                ("marks", POINTER(PlotMark)), ("nr_marks", c_size_t)]


class PlotBar(Structure):
    _fields_ = [("label", c_char_p), ("value", c_double), ("lo", c_double),
                ("hi", c_double), ("better", c_int)]


class PlotSpan(Structure):
    _fields_ = [("row", c_int), ("start", c_double), ("end", c_double),
                ("key", c_int)]


MIRRORS = {"eevdf_config": Config, "eevdf_trace_event": TraceEvent,
           "eevdf_task_stats": TaskStats, "eevdf_headline": Headline,
           "eevdf_run_info": RunInfo, "eevdf_diag": Diag,
           "eevdf_load_opts": LoadOpts, "eevdf_entity_state": EntityState,
           "eevdf_rq_state": RqState, "eevdf_pick_level": PickLevel,
           "eevdf_plot_opts": PlotOpts, "eevdf_plot_point": PlotPoint,
           "eevdf_plot_mark": PlotMark, "eevdf_plot_series": PlotSeries,
           "eevdf_plot_bar": PlotBar, "eevdf_plot_span": PlotSpan}

# (name, restype, argtypes) of every function used
PROTOS = [
    ("eevdf_version_string", c_char_p, []),
    ("eevdf_abi_sizeof", c_size_t, [c_char_p]),
    ("eevdf_strerror", c_char_p, [c_int]),
    ("eevdf_config_init", None, [POINTER(Config)]),
    ("eevdf_config_set_features", c_int,
     [POINTER(Config), c_char_p, c_char_p, c_size_t]),
    ("eevdf_config_set_sysctl", c_int,
     [POINTER(Config), c_char_p, c_char_p, c_char_p, c_size_t]),
    ("eevdf_config_check_features", c_int,
     [POINTER(Config), c_char_p, c_size_t]),
    ("eevdf_profile_default", c_char_p, []),
    ("eevdf_profile_for_release", c_char_p, [c_char_p, c_char_p, c_size_t]),
    ("eevdf_sim_new", c_int,
     [POINTER(Config), POINTER(c_void_p), c_char_p, c_size_t]),
    ("eevdf_sim_free", None, [c_void_p]),
    ("eevdf_sim_run", c_int, [c_void_p, time_t]),
    ("eevdf_sim_now", time_t, [c_void_p]),
    ("eevdf_sim_done", c_bool, [c_void_p]),
    ("eevdf_sim_errmsg", c_char_p, [c_void_p]),
    ("eevdf_sim_nr_tasks", c_size_t, [c_void_p]),
    ("eevdf_sim_nr_cpus", c_int, [c_void_p]),
    ("eevdf_sim_kernel", c_char_p, [c_void_p]),
    ("eevdf_sim_seed", c_uint64, [c_void_p]),
    ("eevdf_sim_name", c_char_p, [c_void_p]),
    ("eevdf_sim_task_stats", c_int, [c_void_p, c_size_t, POINTER(TaskStats)]),
    ("eevdf_sim_results_json_run", c_int,
     [c_void_p, POINTER(RunInfo), POINTER(c_void_p)]),
    ("eevdf_sim_trace_detail", c_int, [c_void_p, c_uint]),
    ("eevdf_sim_task_state", c_int, [c_void_p, c_int, POINTER(EntityState)]),
    ("eevdf_sim_rq_state", c_int, [c_void_p, c_int, POINTER(RqState)]),
    ("eevdf_sim_rq_entities", c_int,
     [c_void_p, c_int, POINTER(EntityState), c_size_t]),
    ("eevdf_sim_rq_pick_levels", c_int,
     [c_void_p, c_int, POINTER(PickLevel), c_size_t]),
    ("eevdf_sim_task_group", c_char_p, [c_void_p, c_int]),
    ("eevdf_rule_name", c_char_p, [c_int]),
    ("eevdf_rule_text", c_char_p, [c_int]),
    ("eevdf_workload_load_file_opts", c_int,
     [c_char_p, POINTER(LoadOpts), POINTER(c_void_p), POINTER(Diag)]),
    ("eevdf_workload_free", None, [c_void_p]),
    ("eevdf_workload_name", c_char_p, [c_void_p]),
    ("eevdf_workload_add_tasks", c_int, [c_void_p, c_void_p, POINTER(Diag)]),
    ("eevdf_workload_duration", time_t, [c_void_p]),
    ("eevdf_workload_sha256", c_char_p, [c_void_p]),
    ("eevdf_workload_duration_param", c_char_p, [c_void_p]),
    ("eevdf_workload_nr_params", c_size_t, [c_void_p]),
    ("eevdf_workload_param_name", c_char_p, [c_void_p, c_size_t]),
    ("eevdf_workload_param_value", c_char_p,
     [c_void_p, c_size_t, c_char_p, c_size_t]),
    ("eevdf_workload_completed", c_int,
     [c_void_p, c_void_p, c_char_p, c_size_t]),
    ("eevdf_workload_machine", c_void_p, [c_void_p]),
    ("eevdf_workload_kernel", c_char_p, [c_void_p]),
    ("eevdf_workload_seed", c_bool, [c_void_p, POINTER(c_uint64)]),
    ("eevdf_workload_report_format", c_char_p, [c_void_p]),
    ("eevdf_workload_report_option", c_char_p, [c_void_p, c_char_p]),
    ("eevdf_diag_format", c_char_p, [POINTER(Diag), c_char_p, c_size_t]),
    ("eevdf_report_headlines", c_int,
     [c_void_p, c_char_p, OPT_FN, c_void_p, POINTER(Headline), c_size_t,
      POINTER(c_size_t), c_char_p, c_size_t]),
    ("eevdf_parse_duration", c_int, [c_char_p, time_t, POINTER(time_t)]),
    ("eevdf_machine_new_flat", c_int,
     [c_int, POINTER(c_void_p), c_char_p, c_size_t]),
    ("eevdf_machine_load_file", c_int, [c_char_p, POINTER(c_void_p),
                                        POINTER(Diag)]),
    ("eevdf_machine_clone", c_void_p, [c_void_p]),
    ("eevdf_machine_free", None, [c_void_p]),
    ("eevdf_machine_set_hz", c_int, [c_void_p, c_int]),
    ("eevdf_machine_nr_cpus", c_int, [c_void_p]),
    ("eevdf_machine_nr_llcs", c_int, [c_void_p]),
    ("eevdf_machine_hz", c_int, [c_void_p]),
    ("eevdf_plot_lines_svg", c_int,
     [POINTER(PlotOpts), POINTER(PlotSeries), c_size_t, POINTER(c_void_p)]),
    ("eevdf_plot_ratio_svg", c_int,
     [POINTER(PlotOpts), POINTER(PlotBar), c_size_t, POINTER(c_void_p)]),
    ("eevdf_plot_timeline_svg", c_int,
     [POINTER(PlotOpts), POINTER(c_char_p), c_size_t, POINTER(c_char_p),
      c_size_t, POINTER(PlotSpan), c_size_t, POINTER(c_void_p)]),
]


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    env = os.environ.get("EEVDF_LIB")
    if env:
        yield env, "$EEVDF_LIB"
        return
    tree = os.path.normpath(os.path.join(here, "..", "..", "build"))
    yield os.path.join(tree, "libeevdf.so.0"), "the build tree"
    if shutil.which("pkg-config"):
        try:
            libdir = subprocess.run(
                ["pkg-config", "--variable=libdir", "eevdf"],
                capture_output=True, text=True, check=True).stdout.strip()
            if libdir:
                yield os.path.join(libdir, "libeevdf.so.0"), "pkg-config"
        except (OSError, subprocess.CalledProcessError):
            pass
    found = ctypes.util.find_library("eevdf")
    if found:
        yield found, "the dynamic linker's search path"
    yield os.path.expanduser("~/.local/lib/libeevdf.so.0"), "~/.local/lib"


class LibraryNotFound(ImportError):
    pass


def load():
    tried = []
    for path, where in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s (%s): no such file" % (path, where))
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s): %s" % (path, where, e))
            continue
        for name, res, args in PROTOS:
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        for cname, mirror in MIRRORS.items():
            want = lib.eevdf_abi_sizeof(cname.encode())
            if want != ctypes.sizeof(mirror):
                raise ImportError(
                    "%s: struct %s is %d bytes in the library and %d in "
                    "the eevdf package: they were built from different "
                    "sources" % (path, cname, want, ctypes.sizeof(mirror)))
        lib.path = path
        return lib
    raise LibraryNotFound(
        "cannot find libeevdf.so (build it with 'make', or set EEVDF_LIB "
        "to its path); tried:\n  " + "\n  ".join(tried))


lib = load()
