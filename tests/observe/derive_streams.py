"""derive_streams.py - every epoch and capture state a trace records, derived again from the records alone.

    (tests/observe/derive_check.py TRACE.jsonl runs it on a dump)

The preload library stamps each call on a stream with the stream's epoch, read
from its in-process tables at the call (src/tracer/core/stream_table.h). This is the
rule those tables implement, written once as a model that needs nothing but
the records, and a check that it gives back exactly what the library
recorded: an independent statement of what an epoch means, which a change to
the tables (or a reader that derived epochs itself) must keep. (Written to
specify moving the derivation to a reader; moving the derivation alone was
measured to save nothing on the GPU, docs/performance.md.)

- a stream's epoch = its own observations + its device's device
  synchronizes + (unless it was created non-blocking) its device's
  legacy-stream synchronizes; a stream's device is the calling thread's
  device where it was first named (created or used);
- a stream or event synchronize (or successful query) that says which
  stream it completed (completed_stream, new_epoch) is one observation of
  that stream; a legacy-NULL stream synchronize is that and then one legacy
  synchronize of its device; a device synchronize one device synchronize;
- a blocking copy that succeeded outside a capture is one observation of
  its stream (no record says so: the call record is the evidence); a
  blocking memset or a guard's wait writes an epoch record, one observation;
- an event carries the stream and epoch of its last successful record, which
  a stream wait on it names (record_stream, record_epoch);
- a call is capturing when its stream is: a successful begin-capture gives
  the stream a capture of its own, a successful wait on an event recorded in
  a capturing stream pulls the waiting stream into that capture (the wait
  itself is then marked capturing), a successful end-capture ends the capture
  on every stream in it.

Records are taken in the order the reader delivers them (seq, then the merge
of threads by ordered ticks): where two threads race a synchronize and a
call, the recorded value may differ from any order a reader can rebuild,
so the check is for traces of one calling thread.
"""
import collections

NONBLOCKING = 0x1


def word(v):
    """A record field as an integer: hex strings (addresses, handles) or numbers."""
    return int(v, 16) if isinstance(v, str) else int(v or 0)


class EpochModel:
    def __init__(self):
        self.own = collections.Counter()
        self.device = {}            # canonical stream -> device where first named
        self.nonblocking = set()
        self.gen_device = collections.Counter()
        self.gen_legacy = collections.Counter()
        self.capture = {}           # stream -> capture id, while capturing
        self.next_capture = 0
        self.event = {}             # event -> (stream, epoch) of its last record

    def name(self, stream, device):
        if stream and stream not in self.device:
            self.device[stream] = device

    def epoch(self, stream):
        d = self.device.get(stream, 0)
        e = self.own[stream] + self.gen_device[d]
        if stream not in self.nonblocking:
            e += self.gen_legacy[d]
        return e


def mismatches(records):
    """(seq, api, what) for every recorded epoch or capture state the model does not give back."""
    m = EpochModel()
    bad = []
    for r in records:
        kind = r.get("type")
        if kind == "epoch":
            s = word(r["stream"])
            m.own[s] += 1
            if r.get("epoch") is not None and r["epoch"] != m.epoch(s):
                bad.append((r.get("seq"), "epoch record", f"stream {s:#x}: {r['epoch']} recorded, {m.epoch(s)} derived"))
            continue
        if kind != "call":
            continue
        dev, stream, ok = r.get("device", 0), word(r.get("stream")), r.get("result") == 0
        if r.get("op") == "stream" and ok and word(r.get("handle")) and r["api"].startswith(("hipStreamCreate",
                                                                                             "cudaStreamCreate",
                                                                                             "cuStreamCreate")):
            h = word(r["handle"])
            m.name(h, dev)
            (m.nonblocking.add if word(r.get("flags")) & NONBLOCKING else m.nonblocking.discard)(h)
        op, api = r.get("op"), r.get("api", "")
        capturing = bool(stream and m.capture.get(stream))
        if stream:
            m.name(stream, dev)
            if r.get("epoch") is not None and r["epoch"] != m.epoch(stream):
                bad.append((r["seq"], api, f"stream {stream:#x}: {r['epoch']} recorded, {m.epoch(stream)} derived"))
        if op == "event" and ok and "EventRecord" in api and stream:
            m.event[word(r["event"])] = (stream, m.epoch(stream))
        elif op == "event" and ok and "WaitEvent" in api and stream:
            src = m.event.get(word(r["event"]))
            got = (word(r.get("record_stream")), r.get("record_epoch"))
            if src and got != src:
                bad.append((r["seq"], api, f"event recorded at {got}, derived {src}"))
            if src and m.capture.get(src[0]):
                m.capture[stream] = m.capture[src[0]]
                capturing = True
        if op == "capture" and ok and stream:
            if "BeginCapture" in api:
                m.next_capture += 1
                m.capture[stream] = m.next_capture
            elif "EndCapture" in api:
                ended = m.capture.get(stream)
                m.capture = {k: v for k, v in m.capture.items() if v != ended}
        if stream and r.get("epoch") is not None and r.get("capturing") != capturing:
            bad.append((r["seq"], api, f"capturing {r.get('capturing')} recorded, {capturing} derived"))
        if op == "sync" and ok:
            done = word(r.get("completed_stream"))
            if done and r.get("new_epoch") is not None:
                m.name(done, dev)
                m.own[done] += 1
                if r["new_epoch"] != m.epoch(done):
                    bad.append((r["seq"], api, f"new_epoch {r['new_epoch']} recorded, {m.epoch(done)} derived"))
            if r.get("stream_form") == "legacy_null" and done:
                m.gen_legacy[dev] += 1
            elif not stream and not word(r.get("event")) and r.get("completed_seq") == r["seq"]:
                m.gen_device[dev] += 1
        elif op == "copy" and ok and not r.get("async") and not r.get("capturing") and stream:
            m.own[stream] += 1
    return bad
