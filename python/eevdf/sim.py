# SPDX-License-Identifier: MIT
"""A simulation built as ``eevdf-sim run`` builds it, driven from Python.

    sim = Simulation("workloads/tbench.json", cpus=4, params={"nprocs": 8},
                     features="NO_DELAY_DEQUEUE", duration="2s")
    sim.run()
    res = sim.results()           # the results JSON of 'run --format json'
    res["summary"]["throughput_mb_s"]

The options are run's: ``kernel``, ``features``, ``params``, ``machine``
(a machine file, or a shipped machine's name), ``cpus``, ``hz``, ``seed``,
``duration``, ``sysctl``; with the same options the numbers are the CLI's.
"""

import collections
import ctypes
import json
import os
from ctypes import byref, c_char_p, c_int64, c_size_t, c_uint64, c_void_p

from . import _lib
from ._lib import lib

__all__ = ["Simulation", "Event", "EevdfError", "run", "parse_duration",
           "version", "rule_name", "rule_text"]

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [c_void_p]
_libc.free.restype = None

DEFAULT_DURATION = 10 * 1000 ** 3
DEFAULT_SEED = 1

KINDS = {1: "switch", 2: "wakeup", 3: "new", 4: "exit", 5: "tick",
         6: "migrate", 7: "spin", 8: "ipi", 9: "decision", 10: "state"}
DETAIL = {"decisions": 1, "state": 2}

Event = collections.namedtuple(
    "Event", "kind time cpu pid prev_pid prev_state orig_cpu duration rule "
    "pick_pid pick_rule group")
Event.__doc__ = """A trace event (struct eevdf_trace_event): kind is
"switch", "wakeup", "new", "exit", "tick", "migrate", "spin", "ipi",
"decision" or "state"; rule and pick_rule are rule names ("pick_earliest")
for a decision, else None; group the deciding queue's group."""


class EevdfError(Exception):
    """Bad input (a workload, an option) or a failed run: the library's
    message, naming the file and the JSON path where there is one."""


def version():
    return lib.eevdf_version_string().decode()


def rule_name(rule):
    n = lib.eevdf_rule_name(rule)
    return n.decode() if n else None


def rule_text(rule):
    t = lib.eevdf_rule_text(rule)
    return t.decode() if t else None


def parse_duration(d):
    """ns from an int (ns) or a string with a unit ("5ms", "1.5s")."""
    if isinstance(d, int) and not isinstance(d, bool):
        if d < 0:
            raise EevdfError("duration %d is negative" % d)
        return d
    if not isinstance(d, str) or not d or d.isdigit():
        raise EevdfError("duration %r: write a number with a unit "
                         "ns|us|ms|s, e.g. '10s'" % (d,))
    out = c_int64()
    if lib.eevdf_parse_duration(d.encode(), 2 ** 63 - 1, byref(out)) < 0:
        raise EevdfError("invalid duration %r: expected a number with a "
                         "unit ns|us|ms|s" % (d,))
    return out.value


def _shipped_machine(name):
    """The path of a shipped machine by name, as the CLI finds it."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [os.environ.get("EEVDF_MACHINES", ""),
            os.path.join(here, "..", "..", "workloads", "machines")]
    libdir = os.path.dirname(os.path.realpath(getattr(lib, "path", "")))
    dirs.append(os.path.join(libdir, "..", "share", "eevdf-sim",
                             "machines"))
    for d in dirs:
        p = os.path.join(d, name + ".json")
        if d and os.path.isfile(p):
            return os.path.normpath(p)
    return None


def _diag(d):
    buf = ctypes.create_string_buffer(1024)
    return lib.eevdf_diag_format(byref(d), buf, len(buf)).decode()


def _param_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class Simulation:
    """One run of a workload file, built as 'eevdf-sim run' builds it.

    events=True asks for the trace events (events() iterates them);
    on_event, a function, is called with each Event from inside the
    simulation, where task_state() and rq_state() read the state of that
    very moment.  detail ("decisions", "state") adds the DECISION and
    STATE events (eevdf/state.h).  Without events nothing is traced and
    the run costs what 'run' costs.
    """

    def __init__(self, workload, kernel=None, features=None, params=None,
                 machine=None, cpus=None, hz=None, seed=None, duration=None,
                 sysctl=None, events=False, on_event=None, detail=()):
        self.workload_path = os.fspath(workload)
        self._sim = c_void_p()
        self._wl = c_void_p()
        self._machine = c_void_p()
        self._queue = collections.deque()
        self._on_event = on_event
        self._cb_error = None
        self._argv = ["eevdf-sim", "run"]
        self._options = dict(kernel=kernel, features=features,
                             params=dict(params or {}), machine=machine,
                             cpus=cpus, hz=hz, seed=seed, duration=duration,
                             sysctl=dict(sysctl or {}))
        try:
            self._build(kernel, features, params or {}, machine, cpus, hz,
                        seed, duration, sysctl or {},
                        events or on_event is not None)
            bits = 0
            for d in detail:
                if d not in DETAIL:
                    raise EevdfError("detail: unknown %r (known: "
                                     "decisions, state)" % (d,))
                bits |= DETAIL[d]
            if bits:
                if not (events or on_event):
                    raise EevdfError("detail needs events=True or "
                                     "on_event: they are trace events")
                lib.eevdf_sim_trace_detail(self._sim, bits)
        except BaseException:
            self.close()
            raise

    # building --------------------------------------------------------

    def _build(self, kernel, features, params, machine, cpus, hz, seed,
               duration, sysctl, traced):
        argv = self._argv
        err = ctypes.create_string_buffer(4096)
        if machine is not None:
            path = os.fspath(machine)
            if not os.path.exists(path) and os.sep not in path:
                found = _shipped_machine(path)
                if not found:
                    raise EevdfError("machine: no file and no shipped "
                                     "machine named %r" % path)
                path = found
            d = _lib.Diag()
            if lib.eevdf_machine_load_file(path.encode(),
                                           byref(self._machine),
                                           byref(d)) < 0:
                raise EevdfError(_diag(d))
            argv += ["--machine", os.fspath(machine)]
        elif cpus is not None:
            if lib.eevdf_machine_new_flat(int(cpus), byref(self._machine),
                                          err, len(err)) < 0:
                raise EevdfError("cpus: " + err.value.decode())
            argv += ["--cpus", str(int(cpus))]
        dur = parse_duration(duration) if duration is not None else 0
        if duration is not None:
            argv += ["--duration", _argv_duration(duration)]
        plist = ["%s=%s" % (k, _param_text(v)) for k, v in params.items()]
        for p in plist:
            argv += ["--param", p]
        self._params = (c_char_p * (len(plist) + 1))(
            *[p.encode() for p in plist], None)
        opts = _lib.LoadOpts()
        opts.params = self._params
        opts.nr_params = len(plist)
        if self._machine:
            opts.ncpus = lib.eevdf_machine_nr_cpus(self._machine)
            opts.nllc = lib.eevdf_machine_nr_llcs(self._machine)
        opts.duration = dur
        d = _lib.Diag()
        if lib.eevdf_workload_load_file_opts(self.workload_path.encode(),
                                             byref(opts), byref(self._wl),
                                             byref(d)) < 0:
            raise EevdfError(_diag(d))
        if not self._machine:
            own = lib.eevdf_workload_machine(self._wl)
            if own:
                self._machine = c_void_p(lib.eevdf_machine_clone(own))
            elif lib.eevdf_machine_new_flat(1, byref(self._machine), err,
                                            len(err)) < 0:
                raise EevdfError(err.value.decode())
        if hz is not None:
            if lib.eevdf_machine_set_hz(self._machine, int(hz)) < 0:
                raise EevdfError("hz: %r is out of range" % (hz,))
            argv += ["--hz", str(int(hz))]
        self.duration = dur or lib.eevdf_workload_duration(self._wl) or \
            DEFAULT_DURATION
        cfg = _lib.Config()
        lib.eevdf_config_init(byref(cfg))
        name = lib.eevdf_workload_name(self._wl)
        self._name = name if name else self.workload_path.encode()
        cfg.name = self._name
        if seed is not None:
            cfg.seed = int(seed)
            argv += ["--seed", str(int(seed))]
        else:
            s = c_uint64()
            cfg.seed = s.value if lib.eevdf_workload_seed(
                self._wl, byref(s)) else DEFAULT_SEED
        if kernel is not None:
            note = ctypes.create_string_buffer(256)
            k = lib.eevdf_profile_for_release(str(kernel).encode(), note,
                                              len(note))
            if not k:
                raise EevdfError("kernel: unknown kernel profile %r" %
                                 (kernel,))
            self._kernel = k
            argv += ["--kernel", str(kernel)]
        else:
            self._kernel = lib.eevdf_workload_kernel(self._wl)
        cfg.kernel = self._kernel
        if features:
            flist = features if isinstance(features, str) else \
                ",".join(features)
            if lib.eevdf_config_set_features(byref(cfg), flist.encode(),
                                             err, len(err)) < 0:
                raise EevdfError("features: " + err.value.decode())
            argv += ["--features", flist]
        for k, v in sysctl.items():
            if lib.eevdf_config_set_sysctl(byref(cfg), k.encode(),
                                           str(v).encode(), err,
                                           len(err)) < 0:
                raise EevdfError("sysctl: " + err.value.decode())
            argv += ["--sysctl", "%s=%s" % (k, v)]
        cfg.machine = self._machine
        cfg.nr_cpus = lib.eevdf_machine_nr_cpus(self._machine)
        cfg.hz = lib.eevdf_machine_hz(self._machine)
        cfg.duration = self.duration
        if lib.eevdf_config_check_features(byref(cfg), err, len(err)) < 0:
            raise EevdfError("features: " + err.value.decode())
        if traced:
            self._trace_fn = _lib.TRACE_FN(self._trace)
            cfg.trace = self._trace_fn
        rc = lib.eevdf_sim_new(byref(cfg), byref(self._sim), err, len(err))
        if rc < 0:
            raise EevdfError("cannot create the simulation: " +
                             (err.value.decode() or
                              lib.eevdf_strerror(rc).decode()))
        d = _lib.Diag()
        if lib.eevdf_workload_add_tasks(self._wl, self._sim, byref(d)) < 0:
            raise EevdfError(_diag(d) if d.msg else
                             lib.eevdf_sim_errmsg(self._sim).decode())
        argv.append(self.workload_path)

    def _trace(self, ud, evp):
        try:
            e = ctypes.cast(evp, ctypes.POINTER(_lib.TraceEvent)).contents
            ev = Event(KINDS.get(e.kind, e.kind), e.time, e.cpu, e.pid,
                       e.prev_pid, e.prev_state, e.orig_cpu, e.duration,
                       rule_name(e.rule) if e.kind == 9 else None,
                       e.pick_pid,
                       rule_name(e.pick_rule) if e.pick_rule else None,
                       e.group.decode() if e.group else None)
            if self._on_event:
                self._on_event(ev)
            else:
                self._queue.append(ev)
        except BaseException as exc:  # raised again after the event
            if self._cb_error is None:
                self._cb_error = exc

    # running ---------------------------------------------------------

    def _check(self, rc):
        if self._cb_error is not None:
            exc, self._cb_error = self._cb_error, None
            raise exc
        if rc < 0:
            raise EevdfError("%s: simulation failed at %d ns: %s" % (
                self.workload_path, self.now,
                lib.eevdf_sim_errmsg(self._sim).decode()))

    @property
    def now(self):
        return lib.eevdf_sim_now(self._sim)

    @property
    def done(self):
        return bool(lib.eevdf_sim_done(self._sim))

    def run(self, until=None):
        """Run to until (ns or "5ms"; default: the run's duration)."""
        t = self.duration if until is None else parse_duration(until)
        if t > self.duration:
            raise EevdfError("run: %d ns is after the run's end at %d ns"
                             % (t, self.duration))
        self._check(lib.eevdf_sim_run(self._sim, t))
        return self

    def events(self, until=None, step="1ms"):
        """The trace events up to until (default: the end), in order, as
        the run proceeds in steps of `step` of simulated time."""
        if not hasattr(self, "_trace_fn") or self._on_event:
            raise EevdfError("events(): make the Simulation with "
                             "events=True (and no on_event)")
        end = self.duration if until is None else parse_duration(until)
        q = parse_duration(step)
        while True:
            while self._queue:
                yield self._queue.popleft()
            if self.now >= end or self.done:
                return
            self._check(lib.eevdf_sim_run(self._sim,
                                          min(end, self.now + q)))

    def detail(self, *what):
        """Turn decision and state events on ("decisions", "state") or
        off (none) from now on."""
        bits = 0
        for d in what:
            if d not in DETAIL:
                raise EevdfError("detail: unknown %r" % (d,))
            bits |= DETAIL[d]
        if lib.eevdf_sim_trace_detail(self._sim, bits) < 0:
            raise EevdfError("detail: %r" % (what,))

    # state -----------------------------------------------------------

    @staticmethod
    def _state_dict(s):
        d = {k: getattr(s, k) for k, _ in _lib.EntityState._fields_}
        for k in ("group", "my_group"):
            d[k] = d[k].decode() if d[k] else None
        d["protected"] = d.pop("protected_slice")
        return d

    def task_state(self, pid):
        """A task's EEVDF state (eevdf_sim_task_state()) as a dict of exact
        integers: vruntime, deadline, V, vlag (V - vruntime), lag (vlag x
        weight), deadline_v (deadline - V), eligible, ..."""
        s = _lib.EntityState()
        if lib.eevdf_sim_task_state(self._sim, int(pid), byref(s)) < 0:
            raise EevdfError("task_state: no task with pid %r" % (pid,))
        return self._state_dict(s)

    def rq_state(self, cpu):
        """A CPU's run queue (eevdf_sim_rq_state()) as a dict."""
        s = _lib.RqState()
        if lib.eevdf_sim_rq_state(self._sim, int(cpu), byref(s)) < 0:
            raise EevdfError("rq_state: no CPU %r" % (cpu,))
        return {k: getattr(s, k) for k, _ in _lib.RqState._fields_}

    def rq_entities(self, cpu):
        """Every entity queued on cpu, root first, groups' entities
        followed by what is queued in them (eevdf_sim_rq_entities())."""
        n = lib.eevdf_sim_rq_entities(self._sim, int(cpu), None, 0)
        if n < 0:
            raise EevdfError("rq_entities: no CPU %r" % (cpu,))
        arr = (_lib.EntityState * max(n, 1))()
        lib.eevdf_sim_rq_entities(self._sim, int(cpu), arr, n)
        return [self._state_dict(arr[i]) for i in range(n)]

    def pick(self, cpu):
        """What pick_eevdf() returns on cpu now, level by level, and why:
        [{"group", "pid", "picked_group", "rule"}, ...]."""
        arr = (_lib.PickLevel * 40)()
        n = lib.eevdf_sim_rq_pick_levels(self._sim, int(cpu), arr, 40)
        if n < 0:
            raise EevdfError("pick: no CPU %r" % (cpu,))
        return [{"group": arr[i].group.decode(), "pid": arr[i].pid,
                 "picked_group": arr[i].picked_group.decode()
                 if arr[i].picked_group else None,
                 "rule": rule_name(arr[i].rule)} for i in range(min(n, 40))]

    def task_group(self, pid):
        g = lib.eevdf_sim_task_group(self._sim, int(pid))
        return g.decode() if g else None

    # results ---------------------------------------------------------

    def task_stats(self):
        """Each task's stats (struct eevdf_task_stats) as dicts, by pid."""
        out = []
        for i in range(lib.eevdf_sim_nr_tasks(self._sim)):
            st = _lib.TaskStats()
            lib.eevdf_sim_task_stats(self._sim, i, byref(st))
            d = {k: getattr(st, k) for k, _ in _lib.TaskStats._fields_}
            d["name"] = d["name"].decode()
            d["cgroup"] = d["cgroup"].decode() if d["cgroup"] else None
            out.append(d)
        return out

    def headlines(self):
        """The report's headline numbers, [(name, unit, better, value)]."""
        fmt = lib.eevdf_workload_report_format(self._wl)
        if not fmt or fmt in (b"none", b"perf_sched_latency"):
            return []
        head = (_lib.Headline * 8)()
        n = c_size_t()
        err = ctypes.create_string_buffer(256)
        opt = _lib.OPT_FN(ctypes.cast(lib.eevdf_workload_report_option,
                                      c_void_p).value)
        if lib.eevdf_report_headlines(self._sim, fmt, opt, self._wl, head,
                                      8, byref(n), err, len(err)) < 0:
            raise EevdfError("report %s: %s" % (fmt.decode(),
                                                err.value.decode()))
        return [(head[i].name.decode(), head[i].unit.decode(),
                 head[i].better, head[i].value) for i in range(n.value)]

    def command_line(self):
        """The 'eevdf-sim run' command that makes this run."""
        return list(self._argv)

    def results(self):
        """The results JSON as 'eevdf-sim run --format json' writes it,
        as a dict; its provenance names this package and the equivalent
        command line (which 'eevdf-sim rerun' runs)."""
        head = self.headlines()
        harr = (_lib.Headline * max(len(head), 1))()
        keep = []
        for i, (n, u, b, v) in enumerate(head):
            keep += [n.encode(), u.encode()]
            harr[i] = _lib.Headline(keep[-2], keep[-1], b, v)
        info = _lib.RunInfo()
        info.head = harr
        info.nr_head = len(head)
        why = ctypes.create_string_buffer(256)
        info.complete = lib.eevdf_workload_completed(self._wl, self._sim,
                                                     why, len(why))
        info.incomplete = why.value if info.complete == 0 else None
        tool = ("eevdf-python " + version()).encode()
        info.tool = tool
        # the run that writes these results: run --format json
        argv = [a.encode() for a in self._argv[:-1] + ["--format", "json"] +
                self._argv[-1:]]
        av = (c_char_p * len(argv))(*argv)
        info.argv = av
        info.argc = len(argv)
        info.workload_path = self.workload_path.encode()
        info.workload_sha256 = lib.eevdf_workload_sha256(self._wl)
        info.duration_param = lib.eevdf_workload_duration_param(self._wl)
        np_ = lib.eevdf_workload_nr_params(self._wl)
        buf = ctypes.create_string_buffer(4096)
        names = [lib.eevdf_workload_param_name(self._wl, i)
                 for i in range(np_)]
        values = [lib.eevdf_workload_param_value(self._wl, i, buf,
                                                 len(buf))
                  for i in range(np_)]
        na = (c_char_p * max(np_, 1))(*names)
        va = (c_char_p * max(np_, 1))(*values)
        info.param_names = na
        info.param_values = va
        info.nr_params = np_
        out = c_void_p()
        rc = lib.eevdf_sim_results_json_run(self._sim, byref(info),
                                            byref(out))
        if rc < 0:
            raise EevdfError("results: " + lib.eevdf_strerror(rc).decode())
        try:
            return json.loads(ctypes.string_at(out.value).decode())
        finally:
            _libc.free(out)

    def tasks_frame(self):
        """The results' tasks as a pandas DataFrame (pandas needed)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("tasks_frame() needs pandas (Debian: "
                              "python3-pandas); results() gives the same "
                              "as dicts") from e
        return pandas.DataFrame(self.results()["tasks"])

    # lifetime --------------------------------------------------------

    def close(self):
        if self._sim:
            lib.eevdf_sim_free(self._sim)
            self._sim = c_void_p()
        if self._wl:
            lib.eevdf_workload_free(self._wl)
            self._wl = c_void_p()
        if self._machine:
            lib.eevdf_machine_free(self._machine)
            self._machine = c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def _argv_duration(d):
    return "%dns" % d if isinstance(d, int) else d


def run(workload, **opts):
    """Run a workload to its end: its results JSON as a dict."""
    with Simulation(workload, **opts) as sim:
        return sim.run().results()
