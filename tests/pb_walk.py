#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pb_walk.py TRACE.pftrace [TRACE.json]: the protobuf trace read with a
wire-format reader of our own, for machines without protoc (and as a
second reader where it is).  No protobuf library: the wire format is
varints, 64-bit words and length-delimited fields (protobuf's encoding
document), and the schema is tests/perfetto/perfetto_trace.proto's.

Checks, exiting non-zero with the reason on the first failure:
  - the file is Trace.packet fields (1, length-delimited) that end exactly
    at the end of the file, and every nested message ends exactly where
    its length says;
  - every field has the wire type its schema declares, and no field is
    unknown to the schema;
  - every event's track was described before it, every name_iid and
    debug name iid was interned before it on its sequence;
  - a track's slices nest: each SLICE_END closes an open SLICE_BEGIN;
  - with the JSON trace of the same run: as many SLICE_BEGIN and
    SLICE_END as the JSON has slices, as many COUNTER events as it has
    counter samples, the same process and thread names.
Prints one summary line: packets and the longest, tracks, events by
type."""
import json
import sys

VARINT, I64, LEN, I32 = 0, 1, 2, 5

# message -> field -> (wire type, nested message or None), from
# tests/perfetto/perfetto_trace.proto
SCHEMA = {
    "Trace": {1: (LEN, "TracePacket")},
    "TracePacket": {8: (VARINT, None), 10: (VARINT, None),
                    12: (LEN, "InternedData"), 13: (VARINT, None),
                    11: (LEN, "TrackEvent"), 60: (LEN, "TrackDescriptor")},
    "TrackDescriptor": {1: (VARINT, None), 5: (VARINT, None),
                        2: (LEN, "string"), 3: (LEN, "ProcessDescriptor"),
                        4: (LEN, "ThreadDescriptor"),
                        8: (LEN, "CounterDescriptor")},
    "ProcessDescriptor": {1: (VARINT, None), 6: (LEN, "string")},
    "ThreadDescriptor": {1: (VARINT, None), 2: (VARINT, None),
                         5: (LEN, "string")},
    "CounterDescriptor": {3: (VARINT, None)},
    "TrackEvent": {22: (LEN, "string"), 10: (VARINT, None),
                   23: (LEN, "string"), 9: (VARINT, None),
                   11: (VARINT, None), 30: (VARINT, None), 44: (I64, None),
                   47: (I64, None), 48: (I64, None),
                   4: (LEN, "DebugAnnotation")},
    "DebugAnnotation": {1: (VARINT, None), 10: (LEN, "string"),
                        2: (VARINT, None), 3: (VARINT, None),
                        4: (VARINT, None), 5: (I64, None),
                        6: (LEN, "string")},
    "InternedData": {2: (LEN, "EventName"), 3: (LEN, "DebugAnnotationName")},
    "EventName": {1: (VARINT, None), 2: (LEN, "string")},
    "DebugAnnotationName": {1: (VARINT, None), 2: (LEN, "string")},
}


class Bad(Exception):
    pass


def varint(b, i, end):
    """The varint at b[i]: (value, next index); at most 10 bytes."""
    v = shift = 0
    for k in range(10):
        if i >= end:
            raise Bad("a varint runs past its message's end at byte %d" % i)
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            if k == 9 and c > 1:
                raise Bad("a 10-byte varint above 64 bits at byte %d" % i)
            return v, i
    raise Bad("a varint longer than 10 bytes at byte %d" % i)


def walk(b, i, end, msg):
    """The fields of a msg in b[i:end] as a list of (field, value): an int
    for varints and 64-bit words, a decoded list for messages, str for
    strings."""
    out = []
    schema = SCHEMA[msg]
    while i < end:
        at = i
        key, i = varint(b, i, end)
        field, wire = key >> 3, key & 7
        if field not in schema:
            raise Bad("%s: field %d at byte %d is not in the schema"
                      % (msg, field, at))
        want, sub = schema[field]
        if wire != want:
            raise Bad("%s.%d at byte %d: wire type %d, the schema's is %d"
                      % (msg, field, at, wire, want))
        if wire == VARINT:
            v, i = varint(b, i, end)
        elif wire == I64:
            if i + 8 > end:
                raise Bad("%s.%d: a 64-bit word past the end" % (msg, field))
            v = int.from_bytes(b[i:i + 8], "little")
            i += 8
        else:
            n, i = varint(b, i, end)
            if i + n > end:
                raise Bad("%s.%d at byte %d: length %d runs past the end "
                          "of its message (%d)" % (msg, field, at, n, end))
            if sub == "string":
                v = b[i:i + n].decode("utf-8")
            else:
                v = walk(b, i, i + n, sub)
            i += n
        out.append((field, v))
    if i != end:
        raise Bad("%s overruns its length" % msg)
    return out


def get(fields, f, default=None):
    for k, v in fields:
        if k == f:
            return v
    return default


def int64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def main():
    b = open(sys.argv[1], "rb").read()
    packets = [v for _, v in walk(b, 0, len(b), "Trace")]
    longest, i = 0, 0
    while i < len(b):                   # the packets' lengths, once more
        _, i = varint(b, i, len(b))
        n, i = varint(b, i, len(b))
        longest, i = max(longest, n), i + n
    tracks, procs, threads = {}, set(), set()
    names, debug_names = {}, {}
    open_slices = {}
    types = {1: 0, 2: 0, 3: 0, 4: 0}
    counters = 0
    for n, p in enumerate(packets):
        if get(p, 13, 0) & 1:          # SEQ_INCREMENTAL_STATE_CLEARED
            names.clear()
            debug_names.clear()
        for f, v in p:
            if f == 12:
                for g, e in v:
                    (names if g == 2 else debug_names)[get(e, 1)] = get(e, 2)
        td = get(p, 60)
        if td is not None:
            uuid = get(td, 1)
            if uuid in tracks:
                raise Bad("packet %d: track %d described twice" % (n, uuid))
            parent = get(td, 5)
            if parent is not None and parent not in tracks:
                raise Bad("packet %d: track %d's parent %d is not described "
                          "before it" % (n, uuid, parent))
            tracks[uuid] = td
            pd, th = get(td, 3), get(td, 4)
            if pd is not None:
                procs.add(get(pd, 6))
            if th is not None:
                threads.add(get(th, 5))
        te = get(p, 11)
        if te is None:
            continue
        if get(p, 8) is None:
            raise Bad("packet %d: an event without a timestamp" % n)
        track, typ = get(te, 11), get(te, 9)
        if track not in tracks:
            raise Bad("packet %d: event on track %s, never described"
                      % (n, track))
        if typ not in types:
            raise Bad("packet %d: event type %s" % (n, typ))
        types[typ] += 1
        iid = get(te, 10)
        if typ != 2 and typ != 4 and iid not in names:
            raise Bad("packet %d: name_iid %s not interned" % (n, iid))
        for f, d in te:
            if f == 4 and get(d, 1) not in debug_names:
                raise Bad("packet %d: debug name iid %s not interned"
                          % (n, get(d, 1)))
        if typ == 1:
            open_slices[track] = open_slices.get(track, 0) + 1
        elif typ == 2:
            if not open_slices.get(track):
                raise Bad("packet %d: SLICE_END on track %d with no slice "
                          "open" % (n, track))
            open_slices[track] -= 1
        elif typ == 4:
            counters += 1
            if get(te, 30) is None:
                raise Bad("packet %d: a counter without counter_value" % n)
    if any(open_slices.values()):
        raise Bad("slices left open: %s"
                  % {k: v for k, v in open_slices.items() if v})
    if len(sys.argv) > 2:
        ev = json.load(open(sys.argv[2]))["traceEvents"]
        xs = sum(1 for e in ev if e["ph"] == "X")
        cs = sum(1 for e in ev if e["ph"] == "C")
        if (types[1], types[2], types[4]) != (xs, xs, cs):
            raise Bad("begins %d, ends %d, counters %d; the JSON: %d slices, "
                      "%d counter samples" % (types[1], types[2], types[4],
                                              xs, cs))
        jp = {e["args"]["name"] for e in ev
              if e["ph"] == "M" and e["name"] == "process_name"}
        jt = {e["args"]["name"] for e in ev
              if e["ph"] == "M" and e["name"] == "thread_name"
              and e["pid"] != 0}
        if not procs <= jp or not threads >= jt:
            raise Bad("processes %s threads %s; the JSON: %s, %s"
                      % (sorted(procs), sorted(threads), sorted(jp),
                         sorted(jt)))
    print("%d packets (the longest %d bytes), %d tracks, %d begin, %d end, "
          "%d instant, %d counter" % (len(packets), longest, len(tracks),
                                      types[1], types[2], types[3],
                                      types[4]))


if __name__ == "__main__":
    try:
        main()
    except Bad as e:
        print("pb_walk: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        sys.exit(1)
