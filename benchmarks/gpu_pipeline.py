"""The whole count on the GPU: the oriented CSR built on the device, first calls, whole processes,
partitioned counts, against graphmine on the CPU cores.

Sections (each prints a table; every GPU count is checked against the CPU's):

- ``--build``: the degree-oriented CSR built on the GPU (radix sort of the kernels, and CuPy's sort
  when CuPy is installed) against the CPU's orientation: seconds, arrays equal;
  then the first in-process call on a fresh graph (GPU kernels compiled before) against the CPU's
  first call (orientation + count).
- ``--partition S``: Kronecker S counted in row blocks (``--parts``, and with GRAPHMINE_GPU_MAX_BYTES
  set so that the oriented CSR does not fit) against the unpartitioned count of the same host
  orientation.
- ``--whole SCALE:K,...``: whole processes ``python -m graphmine count-cliques FILE -k K
  [--device cuda]`` on edge-list files written here, alternately; the first GPU process after
  emptying the kernel cache compiles every kernel (reported apart); at scales >= 20 also one
  process's stages (read, CUDA import, context, kernel loading, count) with and without the
  warm-up thread beside the read.
- ``--per-vertex S``: k-cliques through every vertex on Kronecker S against the total count.
- ``--peel GRAPH:K[:K..],...``: k-cliques on the approximate degeneracy order peeled on the GPU
  against the host's exact order (build, largest out-degree, kernel, first calls, CPU).
- ``--multi S,...``: the count over several GPUs (row blocks per GPU): with one GPU, two workers
  on it timed one after the other (each block's kernel time, the split's balance); with two or
  more, workers [0, 1] too. ``--multi-cliques S``: the same for 4- and 5-cliques.

    python benchmarks/gpu_pipeline.py --build 20,22 --partition 22 --parts 4 \
        --whole 22:3,20:3,16:4,14:5 --repeat 2 --per-vertex 12 --json rows.json

Needs a CUDA GPU and numba-cuda (CuPy optional, for the sort comparison).
Nothing here asserts on time.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
from numba import njit, prange

import graphmine as gm
import graphmine.cuda  # noqa: F401  (gm.cuda)
from graphmine.io.generators import kronecker_graph

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fresh(G):
    return gm.Graph.from_csr(G.indptr, G.indices)


@njit(cache=True)
def _ndigits(x):
    d = 1
    while x >= 10:
        x //= 10
        d += 1
    return d


@njit(cache=True, parallel=True)
def _line_lengths(e, out):
    for i in prange(e.shape[0]):
        out[i] = _ndigits(e[i, 0]) + _ndigits(e[i, 1]) + 2


@njit(cache=True, parallel=True)
def _fill(e, start, buf):
    for i in prange(e.shape[0]):
        p = start[i]
        for c in range(2):
            x = e[i, c]
            d = _ndigits(x)
            for q in range(d - 1, -1, -1):
                buf[p + q] = 48 + x % 10
                x //= 10
            p += d
            buf[p] = 9 if c == 0 else 10
            p += 1


def write_edges(G, path):
    """An edge list (u TAB v, one line per edge) written by a parallel kernel (np.savetxt takes
    minutes at scale 22)."""
    e = G.edges()
    ln = np.empty(e.shape[0], np.int64)
    _line_lengths(e, ln)
    start = np.zeros(e.shape[0] + 1, np.int64)
    np.cumsum(ln, out=start[1:])
    buf = np.empty(int(start[-1]), np.uint8)
    _fill(e, start, buf)
    buf.tofile(path)


def sync():
    from numba import cuda

    cuda.synchronize()


def device_build(G, order, threads, repeat=3):
    """(best seconds, graph, device graph) of building ``order``'s orientation on the device for
    fresh copies of G (the last copy and its device data returned)."""
    from graphmine.cuda._device import device_graph

    best = float("inf")
    for _ in range(repeat):
        H = fresh(G)
        sync()
        t0 = time.perf_counter()
        DG = device_graph(H, order, threads)
        sync()
        best = min(best, time.perf_counter() - t0)
    return best, H, DG


def build(scales, threads, rows):
    print("\n| scale | edges | sort | GPU build s | equal to CPU orientation | CPU orientation s |")
    print("|---|---|---|---|---|---|")
    backends = ["numba"]
    try:
        import cupy  # noqa: F401
        backends.append("cupy")
    except ImportError:
        pass
    for s in scales:
        G = kronecker_graph(s, 16, seed=1)
        t0 = time.perf_counter()
        O = fresh(G).oriented("degree", relabel=True, threads=threads)
        cpu_t = time.perf_counter() - t0
        for be in backends:
            os.environ["GRAPHMINE_CUDA_SORT"] = be
            best, H, DG = device_build(G, "degree", threads)
            eq = bool((DG.optr.copy_to_host() == O.indptr).all() and
                      (DG.oind.copy_to_host()[:G.n_edges] == O.indices).all() and (DG.rank() == O.rank).all())
            gm.cuda.release(H)
            rows.append(dict(section="build", scale=s, edges=G.n_edges, sort=be, gpu_build_s=best, equal=eq,
                             cpu_orient_s=cpu_t))
            print(f"| {s} | {G.n_edges:,} | {be} | {best:.4f} | {eq} | {cpu_t:.3f} |", flush=True)
        os.environ.pop("GRAPHMINE_CUDA_SORT", None)
        del O
        # first calls on fresh graphs: GPU (build + bins + kernels) and CPU (orientation + count)
        for _ in range(2):
            first_calls(G, s, threads, rows)


def first_calls(G, s, threads, rows):
    from graphmine.cuda import _build

    H = fresh(G)
    sync()
    t0 = time.perf_counter()
    g = gm.count_triangles(H, device="cuda")
    sync()
    gpu_t = time.perf_counter() - t0
    gm.cuda.release(H)
    H = fresh(G)
    t0 = time.perf_counter()
    c = gm.count_triangles(H, threads=threads)
    cpu_first = time.perf_counter() - t0
    rows.append(dict(section="first", scale=s, gpu_first_s=gpu_t, cpu_first_s=cpu_first, ok=g == c, count=c,
                     sort=_build.sort_backend()))
    print(f"first call, scale {s}: GPU {gpu_t * 1e3:.1f} ms, CPU ({threads} threads) {cpu_first * 1e3:.1f} ms, "
          f"CPU / GPU {cpu_first / gpu_t:.1f}x, counts {'equal' if g == c else 'DIFFER'} ({c:,})", flush=True)


def partition(scale, threads, parts_list, rows):
    from graphmine.cliques import _cuda_launch as _exact, _cuda_partition as _partition

    G = kronecker_graph(scale, 16, seed=1)
    want = gm.count_triangles(G, threads=threads)
    O = G.oriented("degree", relabel=True, threads=threads)
    csr = O.indptr.nbytes + O.indices.nbytes
    os.environ["GRAPHMINE_CUDA_BUILD"] = "host"
    print(f"\nKronecker {scale}: {want:,} triangles; oriented CSR {csr / 2**20:.0f} MiB")
    print("| run | parts | pairs | seconds | count |")
    print("|---|---|---|---|---|")
    for rep in range(3):
        H = fresh(G)
        H._oriented.update(G._oriented)  # the host orientation, shared
        sync()
        t0 = time.perf_counter()
        got = gm.count_triangles(H, device="cuda")
        sync()
        t = time.perf_counter() - t0
        tm = {}
        _exact.count_triangles(H, "degree", threads, timings=tm)
        gm.cuda.release(H)
        rows.append(dict(section="partition", scale=scale, parts=1, seconds=t, kernel_s=tm["kernel"], ok=got == want))
        print(f"| unpartitioned (copy, bins, kernels) | 1 | - | {t:.4f} (kernel {tm['kernel']:.4f}) | "
              f"{'ok' if got == want else 'MISMATCH'} |", flush=True)
    for p in parts_list:
        for rep in range(2):
            tm = {}
            sync()
            t0 = time.perf_counter()
            got = _partition.count_triangles(G, "degree", threads, parts=p, timings=tm)
            sync()
            t = time.perf_counter() - t0
            rows.append(dict(section="partition", scale=scale, parts=tm["parts"], pairs=tm["pairs"], seconds=t,
                             ok=got == want))
            print(f"| parts={p} | {tm['parts']} | {tm['pairs']} | {t:.4f} | {'ok' if got == want else 'MISMATCH'} |",
                  flush=True)
    need = 8 * (G.n_nodes + 1) + 3 * G.indices.dtype.itemsize * G.n_edges  # unpartitioned: CSR, sources, bins
    for frac in (0.6, 0.35):
        os.environ["GRAPHMINE_GPU_MAX_BYTES"] = str(int(frac * need))
        for rep in range(2):
            H = fresh(G)
            H._oriented.update(G._oriented)
            tm = {}
            sync()
            t0 = time.perf_counter()
            got = _partition.count_triangles(H, "degree", threads, timings=tm)
            sync()
            t = time.perf_counter() - t0
            rows.append(dict(section="partition", scale=scale, cap=int(frac * need), parts=tm["parts"],
                             pairs=tm["pairs"], seconds=t, ok=got == want))
            print(f"| cap {frac:.0%} of the unpartitioned need ({int(frac * need) / 2**20:.0f} MiB) | {tm['parts']} "
                  f"| {tm['pairs']} "
                  f"| {t:.4f} | {'ok' if got == want else 'MISMATCH'} |", flush=True)
    os.environ.pop("GRAPHMINE_GPU_MAX_BYTES", None)
    os.environ.pop("GRAPHMINE_CUDA_BUILD", None)


STAGES = r'''
import json, sys, time
t = {}
t0 = time.perf_counter()
import graphmine as gm
t["import_graphmine"] = time.perf_counter() - t0
t1 = time.perf_counter()
G = gm.read_graph(sys.argv[1])
t["read"] = time.perf_counter() - t1
t1 = time.perf_counter()
from numba import cuda
t["import_numba_cuda"] = time.perf_counter() - t1
t1 = time.perf_counter()
cuda.current_context()
t["cuda_context"] = time.perf_counter() - t1
t1 = time.perf_counter()
W = gm.as_graph([(0, 1), (1, 2), (2, 0), (2, 3)])
gm.count_triangles(W, device="cuda")
t["kernels_load_tiny_graph"] = time.perf_counter() - t1
t1 = time.perf_counter()
try:
    import cupy
    t["import_cupy"] = time.perf_counter() - t1
except ImportError:
    pass
t1 = time.perf_counter()
c = gm.count_triangles(G, device="cuda")
cuda.synchronize()
t["count"] = time.perf_counter() - t1
t1 = time.perf_counter()
gm.cuda.release(G)
c = gm.count_triangles(G, device="cuda")
cuda.synchronize()
t["count_again_fresh_device_data"] = time.perf_counter() - t1
t["total"] = time.perf_counter() - t0
print(json.dumps(t))
'''


OVERLAP = r'''
import json, sys, time
t = {}
t0 = time.perf_counter()
import graphmine as gm
from graphmine.cuda import warm_up
if sys.argv[2] == "alone":  # the warm-up with nothing beside it
    w = warm_up(3); w.join(); t["warm_up_alone"] = w.seconds
    print(json.dumps(t)); sys.exit()
w = warm_up(3)
t1 = time.perf_counter()
G = gm.read_graph(sys.argv[1])
t["read_beside_warm_up"] = time.perf_counter() - t1
t1 = time.perf_counter()
w.join()
t["join_wait"] = time.perf_counter() - t1
t["warm_up_thread"] = w.seconds
t1 = time.perf_counter()
c = gm.count_triangles(G, device="cuda")
from numba import cuda
cuda.synchronize()
t["count"] = time.perf_counter() - t1
t["total"] = time.perf_counter() - t0
print(json.dumps(t))
'''


def whole(specs, repeat, work, rows):
    """Whole processes on Kronecker files; ``specs``: (scale, k) pairs."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    gmcmd = [sys.executable, "-m", "graphmine", "count-cliques"]

    def run(cmd):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        t = time.perf_counter() - t0
        if r.returncode:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr[-3000:]}")
        return t, r.stdout

    print("\n| file | k | edges | CPU process s (runs) | GPU process s (runs) | GPU / CPU | auto picks | check |")
    print("|---|---|---|---|---|---|---|---|")
    cold = None
    for s in sorted({sc for sc, _ in specs}):
        G = kronecker_graph(s, 16, seed=1)
        path = os.path.join(work, f"kron{s}.el")
        write_edges(G, path)
        m = G.n_edges
        del G
        for k in [k for sc, k in specs if sc == s]:
            run(gmcmd + [path, "-k", str(k), "-q"])  # page cache, CPU kernels
            if cold is None:  # the GPU kernels' disk cache emptied: this process compiles them
                import glob

                for f in glob.glob(os.path.join(ROOT, "graphmine", "cuda", "__pycache__", "*.nb[ic]")):
                    os.remove(f)
                cold = run(gmcmd + [path, "-k", str(k), "-q", "--device", "cuda"])[0]
                print(f"(first GPU process, kernels compiled into the cache: {cold:.2f} s)", flush=True)
                rows.append(dict(section="cold", scale=s, k=k, seconds=cold))
            cpu, gpu = [], []
            out = {}
            for _ in range(repeat):
                tc, oc = run(gmcmd + [path, "-k", str(k), "-q", "--json"])
                tg, og = run(gmcmd + [path, "-k", str(k), "-q", "--json", "--device", "cuda"])
                cpu.append(tc)
                gpu.append(tg)
                out = (json.loads(oc), json.loads(og))
            ok = out[0]["count"] == out[1]["count"]
            from graphmine.cuda import auto_min_edges

            auto = "GPU" if m >= auto_min_edges(k) else "CPU"
            rows.append(dict(section="whole", scale=s, k=k, edges=m, cpu_s=cpu, gpu_s=gpu, ok=ok,
                             cpu_json=out[0], gpu_json=out[1]))
            print(f"| kron{s} | {k} | {m:,} | {min(cpu):.2f} ({', '.join(f'{x:.2f}' for x in cpu)}) "
                  f"| {min(gpu):.2f} ({', '.join(f'{x:.2f}' for x in gpu)}) | {min(gpu) / min(cpu):.2f} | {auto} "
                  f"| {'ok' if ok else 'MISMATCH'} |", flush=True)
        if s >= 20:
            for mode in ("alone", "read"):
                _, st = run([sys.executable, "-c", OVERLAP, path, mode])
                st = json.loads(st)
                rows.append(dict(section="overlap", scale=s, **st))
                print(f"overlap kron{s}: " + ", ".join(f"{a} {b:.3f}" for a, b in st.items()), flush=True)
            _, st = run([sys.executable, "-c", STAGES, path])
            st = json.loads(st)
            rows.append(dict(section="stages", scale=s, **st))
            print(f"stages kron{s} (one GPU process, no overlap): " + ", ".join(f"{a} {b:.3f}" for a, b in st.items()),
                  flush=True)
        os.remove(path)


def per_vertex(scale, ks, rows):
    """k-cliques through every vertex on the GPU: kernel time against the total count's, and the
    identity sum = k * total (the total checked against the CPU's for k <= 5)."""
    from graphmine.cliques import _cuda_launch as _exact

    G = kronecker_graph(scale, 16, seed=1)
    print(f"\n| graph | k | k-cliques | total kernel ms | per-vertex kernel ms | sum = k * total | CPU total |")
    print("|---|---|---|---|---|---|---|")
    for k in ks:
        tm, tp = {}, {}
        total = _exact.count_cliques(G, k, "degeneracy", 16, timings=tm)
        tot2, pv = _exact.clique_counts(G, k, "degeneracy", 16, timings=tp)
        tot2, pv = _exact.clique_counts(G, k, "degeneracy", 16, timings=tp)
        cpu = gm.count_cliques(G, k) if k <= 4 else None
        ok = tot2 == total and int(pv.sum()) == k * total and (cpu is None or cpu == total)
        rows.append(dict(section="per_vertex", scale=scale, k=k, total=total, kernel_s=tm["kernel"],
                         pv_kernel_s=tp["kernel"], ok=ok))
        print(f"| kron{scale} | {k} | {total:,} | {tm['kernel'] * 1e3:.2f} | {tp['kernel'] * 1e3:.2f} | "
              f"{'ok' if ok else 'MISMATCH'} | {'-' if cpu is None else 'ok' if cpu == total else 'MISMATCH'} |",
              flush=True)


def peel(specs, threads, rows):
    """k-cliques with the approximate degeneracy order peeled on the GPU against the host's exact
    order: the orientation's build (GPU rounds against the CPU's peel), its largest out-degree,
    the kernel on each orientation (device data cached), and first calls on fresh graphs (GPU
    peeled, GPU with the host's order copied, CPU alone). ``specs``: (graph, [k, ...])."""
    from graphmine.cuda import _device

    rule = _device.PEEL_MIN_EDGES
    _device.PEEL_MIN_EDGES = 0  # both orientations measured on every graph; the rule's pick is shown
    print("\n| graph | edges | GPU peel ms (rounds) | CPU order ms | max d+ peeled / exact | k | kernel ms peeled"
          " / exact | first call GPU peeled / GPU host order / CPU ms | CPU / GPU | rule picks | counts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        _peel(specs, threads, rows, rule)
    finally:
        _device.PEEL_MIN_EDGES = rule


def _peel(specs, threads, rows, rule):
    from graphmine.cliques import _cuda_launch as _exact
    from graphmine.cuda._device import PEELED, device_graph

    for name, ks in specs:
        G = gm.datasets.load(name) if not name.startswith("kron") else kronecker_graph(int(name[4:]), 16, seed=1)
        gpu_b, H, DP = device_build(G, "degeneracy", threads)
        cpu_b = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            fresh(G).oriented("degeneracy", relabel=True, threads=threads)
            cpu_b = min(cpu_b, time.perf_counter() - t0)
        E = fresh(G)
        E.oriented("degeneracy", relabel=True, threads=threads)
        DE = device_graph(E, "degeneracy", threads)
        for k in ks:
            kp, ke = float("inf"), float("inf")
            for _ in range(3):
                tp, te = {}, {}
                cp = _exact.count_cliques(H, k, "degeneracy", threads, timings=tp)
                ce = _exact.count_cliques(E, k, "degeneracy", threads, timings=te)
                kp, ke = min(kp, tp["kernel"]), min(ke, te["kernel"])
            firsts = []
            for build in ("gpu", "host"):
                os.environ["GRAPHMINE_CUDA_BUILD"] = build
                F = fresh(G)
                sync()
                t0 = time.perf_counter()
                c1 = gm.count_cliques(F, k, device="cuda")
                sync()
                firsts.append(time.perf_counter() - t0)
                assert (PEELED in F.backend_cache("cuda")) == (build == "gpu")
                gm.cuda.release(F)
            os.environ.pop("GRAPHMINE_CUDA_BUILD", None)
            gm.count_cliques(fresh(G), k, threads=threads)  # the CPU's kernels loaded before timing
            t0 = time.perf_counter()
            cc = gm.count_cliques(fresh(G), k, threads=threads)
            cpu_first = time.perf_counter() - t0
            ok = cp == ce == c1 == cc
            rows.append(dict(section="peel", graph=name, edges=G.n_edges, k=k, gpu_peel_s=gpu_b, rounds=DP.peel_rounds,
                             cpu_order_s=cpu_b, max_out_peeled=DP.max_out_degree, max_out_exact=DE.max_out_degree,
                             kernel_peeled_s=kp, kernel_exact_s=ke, first_gpu_peeled_s=firsts[0],
                             first_gpu_host_s=firsts[1], first_cpu_s=cpu_first, count=cc, ok=ok))
            print(f"| {name} | {G.n_edges:,} | {gpu_b * 1e3:.1f} ({DP.peel_rounds}) | {cpu_b * 1e3:.1f} | "
                  f"{DP.max_out_degree} / {DE.max_out_degree} | {k} | {kp * 1e3:.2f} / {ke * 1e3:.2f} | "
                  f"{firsts[0] * 1e3:.1f} / {firsts[1] * 1e3:.1f} / {cpu_first * 1e3:.1f} | "
                  f"{cpu_first / firsts[0]:.1f}x | {'GPU peel' if G.n_edges >= rule else 'host order'} | "
                  f"{'equal' if ok else 'DIFFER'} ({cc:,}) |", flush=True)
        gm.cuda.release(H)
        gm.cuda.release(E)


def multi(scales, threads, repeat, rows, clique_scale=0):
    """Several GPUs (issue 24): the count split into row blocks, one worker per GPU. With one
    visible GPU, two workers on it timed one after the other give each block's kernel time: the
    two-GPU kernel time would be the larger of the two (the split's balance), the workers running
    at once. Counts checked against the CPU's."""
    from numba import cuda

    from graphmine.cliques import _cuda_launch as _exact, _cuda_multi as _multi

    ngpu = len(cuda.gpus)
    print(f"\nSeveral GPUs: {ngpu} visible")
    print("| graph | edges | workers | count | one GPU kernel ms | per-worker kernel ms (alone) | max / one GPU "
          "| threaded wall s | cuts |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in scales:
        t0 = time.perf_counter()
        G = kronecker_graph(s, 16, seed=1)
        tgen = time.perf_counter() - t0
        t0 = time.perf_counter()
        want = gm.count_triangles(G, threads=threads)
        tcpu = time.perf_counter() - t0
        one = None
        for _ in range(repeat):
            tm = {}
            got1 = _exact.count_triangles(G, "degree", threads, timings=tm)
            one = tm["kernel"] if one is None else min(one, tm["kernel"])
        sets = [[0, 0]] + ([[0, 1]] if ngpu >= 2 else [])
        for workers in sets:
            best = None
            for _ in range(repeat):
                tm = {}
                got = _multi.count_triangles(G, threads, workers, timings=tm, serial=True)
                ks = [w["kernel"] for w in tm["workers"]]
                best = ks if best is None or max(ks) < max(best) else best
            sync()
            t0 = time.perf_counter()
            got_t = _multi.count_triangles(G, threads, workers)
            sync()
            wall = time.perf_counter() - t0
            pv_ok = None
            if s <= 22:
                pv_ok = bool((gm.cuda.triangles(G, devices=workers) == gm.cuda.triangles(G, devices=[0])).all())
            ok = got == want == got1 == got_t
            rows.append(dict(section="multi", scale=s, edges=G.n_edges, workers=workers, count=got, ok=ok,
                             one_gpu_kernel_s=one, worker_kernel_s=best, threaded_wall_s=wall, cuts=tm["cuts"],
                             per_vertex_ok=pv_ok, gen_s=tgen, cpu_count_s=tcpu))
            print(f"| Kronecker {s} | {G.n_edges:,} | {workers} | {got:,} {'ok' if ok else 'MISMATCH'}"
                  f"{'' if pv_ok is None else ', per-vertex ' + ('ok' if pv_ok else 'MISMATCH')} | {one * 1e3:.2f} | "
                  f"{' / '.join(f'{k * 1e3:.2f}' for k in best)} | {max(best) / one:.2f} | {wall:.3f} | "
                  f"{tm['cuts'][1:-1]} |", flush=True)
        gm.cuda.release(G)
        del G
    if clique_scale:
        G = kronecker_graph(clique_scale, 16, seed=1)
        for k in (4, 5):
            want = gm.cuda.count_cliques(G, k, devices=[0])
            tm1 = {}
            _exact.count_cliques(G, k, "degeneracy", threads, timings=tm1)
            tm = {}
            got = _multi.count_cliques(G, k, "degeneracy", threads, [0, 0], timings=tm, serial=True)
            ks = [w["kernel"] for w in tm["workers"]]
            ok = got == want
            rows.append(dict(section="multi_cliques", scale=clique_scale, k=k, count=got, ok=ok,
                             one_gpu_kernel_s=tm1["kernel"], worker_kernel_s=ks))
            print(f"| Kronecker {clique_scale}, k = {k} | {G.n_edges:,} | [0, 0] | {got:,} {'ok' if ok else 'MISMATCH'} "
                  f"| {tm1['kernel'] * 1e3:.2f} | {' / '.join(f'{x * 1e3:.2f}' for x in ks)} | "
                  f"{max(ks) / tm1['kernel']:.2f} | - | - |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="20,22", help="scales of the build and first-call rows ('' for none)")
    ap.add_argument("--partition", type=int, default=22)
    ap.add_argument("--parts", default="4,8")
    ap.add_argument("--whole", default="20:3,22:3", help="scale:k pairs of the whole-process runs")
    ap.add_argument("--per-vertex", type=int, default=0, help="scale of the per-vertex k-clique rows")
    ap.add_argument("--per-vertex-k", default="4,5,6,7,8")
    ap.add_argument("--peel", default="", help="graph:k[:k...] specs of the peeled-order k-clique rows "
                    "(kron16:4:5,facebook_combined:4:5; '' for none)")
    ap.add_argument("--multi", default="", help="scales of the several-GPU rows (issue 24; '' for none)")
    ap.add_argument("--multi-cliques", type=int, default=0, help="scale of the several-GPU k-clique rows")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--dir", default="/tmp", help="where the edge-list files go (removed after use)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    rows = []
    from graphmine.core.exceptions import GraphmineError

    try:
        ok = gm.cuda.is_available()
    except GraphmineError as exc:  # numba-cuda missing: the error names the extra
        raise SystemExit(f"benchmarks/gpu_pipeline.py: {exc}") from None
    if not ok:
        raise SystemExit("benchmarks/gpu_pipeline.py: no CUDA device visible; this benchmark needs an NVIDIA GPU")
    import warnings

    from numba import cuda

    warnings.filterwarnings("ignore", message=".*will likely result in GPU under-utilization")

    # compile (or load) every kernel on a small graph first
    W = kronecker_graph(10, 16, seed=1)
    gm.count_triangles(W, device="cuda"), gm.count_triangles(W, threads=args.threads)
    from graphmine.cliques import _cuda_partition as _partition

    _partition.count_triangles(fresh(W), "degree", 1, parts=3)
    print(f"GPU: {cuda.get_current_device().name}; CPU threads: {args.threads}", flush=True)
    try:
        if args.build:
            build([int(x) for x in args.build.split(",")], args.threads, rows)
        if args.partition:
            partition(args.partition, args.threads, [int(x) for x in args.parts.split(",") if x], rows)
        if args.per_vertex:
            per_vertex(args.per_vertex, [int(x) for x in args.per_vertex_k.split(",")], rows)
        if args.peel:
            peel([(x.split(":")[0], [int(k) for k in x.split(":")[1:]]) for x in args.peel.split(",")], args.threads,
                 rows)
        if args.multi or args.multi_cliques:
            multi([int(x) for x in args.multi.split(",") if x], args.threads, args.repeat, rows,
                  args.multi_cliques)
        if args.whole:
            whole([tuple(int(y) for y in x.split(":")) for x in args.whole.split(",")], args.repeat, args.dir, rows)
    finally:
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(rows, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
