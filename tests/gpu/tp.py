#!/usr/bin/env python3
"""GPU validation case (e): tensor parallel, two ranks, one process per GPU
(run by tests/gpu/run_all.sh tp on nvidia-h200-x2, each rank under
LD_PRELOAD=build/libhipvis.so). The decode loop of decode.py with an NCCL
all-reduce captured inside each graph: the graph gets NCCL's side-stream
fork/join (event record/wait nodes) and its collective kernel. NVLink
multicast stays off (NCCL_NVLS_ENABLE=0 and friends, set by the caller).

Environment: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT.
"""
import faulthandler
import json
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decode import N, SIZES, Decode, hipvis_switch, seqlen_kernel  # noqa: E402


class TPDecode(Decode):
    """decode.py's loop; each graph's body ends in a row-parallel layer's
    all-reduce. Other threads (NCCL's proxy) may make calls while a graph is
    captured, hence thread-local capture."""

    capture_mode = "thread_local"

    def body(self, bs):
        seqlen_kernel[(1,)](self.cu_seqlens_q, self.out, bs, BLOCK=N)
        y = self.hidden[:bs] * self.out[:bs, None]
        dist.all_reduce(y)
        return torch.relu(y).sum(dim=1)


def nccl_version():
    v = torch.cuda.nccl.version()
    return ".".join(map(str, v)) if isinstance(v, tuple) else str(v)


def phase(msg):
    print("tp rank %s: %s" % (os.environ.get("RANK"), msg), file=sys.stderr, flush=True)


def main():
    # A hang prints every thread's stack (and ends the process) instead of
    # waiting for the caller's timeout.
    faulthandler.dump_traceback_later(int(os.environ.get("TP_HANG_S", "90")), exit=True)
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    phase("process group up")
    d = TPDecode(torch.device("cuda", rank))
    phase("graphs captured")
    for i in range(48):
        d.step(i)
    torch.cuda.synchronize()
    phase("replays done")
    # The graphs computed the same sums on both ranks (all-reduced input).
    check = d.graphs[SIZES[-1]][1].clone()
    ref = check.clone()
    dist.broadcast(ref, 0)
    same = bool(torch.allclose(check, ref))
    print(json.dumps({"result": {"case": "tp", "rank": rank, "world": world, "hipvis": hipvis_switch() is not None,
                                 "cu_seqlens_q": hex(d.cu_seqlens_q.data_ptr()), "ranks_agree": same,
                                 "triton_kernel": seqlen_kernel.fn.__name__, "nccl": nccl_version(),
                                 "gpu": torch.cuda.get_device_name(rank), "torch": torch.__version__}}), flush=True)
    # destroy_process_group can hang while graphs holding NCCL work are alive
    # (pytorch/pytorch#115388): drop them first, and bound the wait.
    d.graphs.clear()
    del d
    torch.cuda.synchronize()
    faulthandler.cancel_dump_traceback_later()
    faulthandler.dump_traceback_later(30, exit=True)
    dist.destroy_process_group()
    phase("process group destroyed")
    faulthandler.cancel_dump_traceback_later()


if __name__ == "__main__":
    sys.exit(main())
