"""CUDA kernels (numba-cuda) that build the degree-ordered oriented CSR on the device.

From the host CSR of an undirected graph (``indptr``, ``indices``; rows sorted, no loops or
duplicates) to the CSR the counting kernels read (:mod:`graphmine.cliques._cuda_kernels`): ids relabelled
by rank in the order (deg u, u) < (deg v, v), every arc u -> v with u < v, rows sorted. The
ranks come from sorting the keys ``deg(v) << idbits | v``; the arcs from sorting the keys
``rank(u) << idbits | rank(w)`` (one 64-bit key per arc: the sort groups the rows and sorts each
row at once). The sort is a least-significant-digit radix sort over the bits the keys use
(RADIX_BITS bits a pass, stable: every block keeps its elements' order, thread by thread); an
exclusive scan (tile sums, one block scanning the sums, tile scans) gives the radix offsets and
the row pointers.

The approximate degeneracy order (k-cliques) peels in rounds: every vertex still in the graph
whose degree there is at most (1 + eps) times the average of those still there leaves in this
round (its level); its leaving lowers its remaining neighbours' degrees (atomics). Ranks sort the
keys ``level(v) << idbits | v``.

Contract: kernels never validate and never raise; keys are non-negative int64.
"""

from numba import cuda, int32, int64

RADIX_BITS = 5
RADIX = 1 << RADIX_BITS
ITEMS = 16     # consecutive elements per thread: a tile is blockDim.x * ITEMS elements
MAXT = 256     # largest block (shared arrays are sized for it)
SCATTER_SLOTS = RADIX * MAXT  # a count per digit and thread


@cuda.jit(device=True, inline=True)
def _block_inclusive(sh, t, T):
    """Inclusive prefix sums of sh[0:T] in place (all threads of the block call it)."""
    off = 1
    while off < T:
        x = sh[t - off] if t >= off else 0
        cuda.syncthreads()
        sh[t] += x
        cuda.syncthreads()
        off *= 2


@cuda.jit(device=True)
def _tile_block_scan(a, m, sh, t, T):
    """The block's tile: thread t sums its ITEMS entries of a[0:m], sh becomes the inclusive
    prefix sums of the threads' sums; returns (thread's first index, its sum)."""
    base = cuda.blockIdx.x * T * ITEMS + t * ITEMS
    s = int64(0)
    for i in range(ITEMS):
        if base + i < m:
            s += a[base + i]
    sh[t] = s
    cuda.syncthreads()
    _block_inclusive(sh, t, T)
    return base, s


@cuda.jit(cache=True)
def _tile_sums(a, m, sums):
    """sums[b] = sum of a[b * tile:(b + 1) * tile] over the first m elements of a."""
    sh = cuda.shared.array(MAXT, int64)
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    _tile_block_scan(a, m, sh, t, T)
    if t == T - 1:
        sums[cuda.blockIdx.x] = sh[t]


@cuda.jit(cache=True)
def _scan_top(sums, nb):
    """Exclusive prefix sums of sums[0:nb] in place, by one block (contiguous chunks per thread)."""
    sh = cuda.shared.array(MAXT, int64)
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    chunk = (nb + T - 1) // T
    lo = min(t * chunk, nb)
    hi = min(lo + chunk, nb)
    s = int64(0)
    for i in range(lo, hi):
        s += sums[i]
    sh[t] = s
    cuda.syncthreads()
    _block_inclusive(sh, t, T)
    run = sh[t] - s
    for i in range(lo, hi):
        x = sums[i]
        sums[i] = run
        run += x


@cuda.jit(cache=True)
def _tile_scan(a, m, sums, out):
    """out[i] = sums[tile of i] + a[start of tile:i] (exclusive prefix sums of a[0:m]); out may
    be a."""
    sh = cuda.shared.array(MAXT, int64)
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    base, s = _tile_block_scan(a, m, sh, t, T)
    run = sums[cuda.blockIdx.x] + sh[t] - s
    for i in range(ITEMS):
        if base + i < m:
            x = a[base + i]
            out[base + i] = run
            run += x


@cuda.jit(cache=True)
def _radix_hist(keys, m, shift, hist, nb):
    """hist[d * nb + b]: how many keys of tile b have digit d at ``shift``."""
    cnt = cuda.shared.array(RADIX, int32)
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    if t < RADIX:
        cnt[t] = 0
    cuda.syncthreads()
    base = cuda.blockIdx.x * T * ITEMS + t * ITEMS
    for i in range(ITEMS):
        if base + i < m:
            cuda.atomic.add(cnt, (keys[base + i] >> shift) & (RADIX - 1), 1)
    cuda.syncthreads()
    if t < RADIX:
        hist[t * nb + cuda.blockIdx.x] = cnt[t]


@cuda.jit(cache=True)
def _radix_scatter(keys, m, shift, offs, nb, out):
    """Stable scatter of tile b's keys to out by digit: offs[d * nb + b] is where tile b's keys
    of digit d start; within a tile, thread t's keys follow those of threads < t."""
    sh = cuda.shared.array(SCATTER_SLOTS, int32)
    tot = cuda.shared.array(MAXT, int32)
    mine = cuda.local.array(RADIX, int32)
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    b = cuda.blockIdx.x
    for d in range(RADIX):
        mine[d] = 0
    base = b * T * ITEMS + t * ITEMS
    for i in range(ITEMS):
        if base + i < m:
            mine[(keys[base + i] >> shift) & (RADIX - 1)] += 1
    for d in range(RADIX):
        sh[d * T + t] = mine[d]
    cuda.syncthreads()
    # exclusive scan of sh[0:RADIX * T] (digit-major): thread t scans entries t * RADIX ..
    s = int32(0)
    for e in range(t * RADIX, t * RADIX + RADIX):
        s += sh[e]
    tot[t] = s
    cuda.syncthreads()
    _block_inclusive(tot, t, T)
    run = tot[t] - s
    for e in range(t * RADIX, t * RADIX + RADIX):
        x = sh[e]
        sh[e] = run
        run += x
    cuda.syncthreads()
    # sh[d * T + t] - sh[d * T]: the keys of digit d in this tile before thread t's
    for d in range(RADIX):
        mine[d] = 0
    for i in range(ITEMS):
        if base + i < m:
            k = keys[base + i]
            d = (k >> shift) & (RADIX - 1)
            out[offs[d * nb + b] + sh[d * T + t] - sh[d * T] + mine[d]] = k
            mine[d] += 1


@cuda.jit(cache=True)
def _degrees(indptr, deg):
    """deg[v] = indptr[v + 1] - indptr[v]."""
    for v in range(cuda.grid(1), deg.shape[0], cuda.gridsize(1)):
        deg[v] = indptr[v + 1] - indptr[v]


@cuda.jit(cache=True)
def _keys_with_ids(a, bits, keys):
    """keys[v] = a[v] << bits | v (a non-negative)."""
    for v in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        keys[v] = (int64(a[v]) << bits) | v


@cuda.jit(cache=True)
def _remaining_degree_sums(level, deg, sums):
    """sums[0] += the degrees of the vertices still in the graph (level < 0), sums[1] += their
    number (a block sum in shared memory, then one atomic per block and value)."""
    sh = cuda.shared.array(MAXT, int64)
    t = cuda.threadIdx.x
    T = cuda.blockDim.x
    s = int64(0)
    c = int64(0)
    for v in range(cuda.grid(1), level.shape[0], cuda.gridsize(1)):
        if level[v] < 0:
            s += deg[v]
            c += 1
    for j in range(2):
        sh[t] = s if j == 0 else c
        cuda.syncthreads()
        _block_inclusive(sh, t, T)
        if t == T - 1:
            cuda.atomic.add(sums, j, sh[t])
        cuda.syncthreads()


@cuda.jit(cache=True)
def _peel_round(level, deg, r, limit):
    """level[v] = r for the vertices still in the graph with deg[v] <= limit."""
    for v in range(cuda.grid(1), level.shape[0], cuda.gridsize(1)):
        if level[v] < 0 and deg[v] <= limit:
            level[v] = r


@cuda.jit(cache=True)
def _peel_neighbours(indptr, indices, level, deg, r):
    """For every vertex that left in round r: deg[w] -= 1 for its neighbours w still there."""
    for v in range(cuda.grid(1), level.shape[0], cuda.gridsize(1)):
        if level[v] == r:
            for p in range(indptr[v], indptr[v + 1]):
                w = indices[p]
                if level[w] < 0:
                    cuda.atomic.sub(deg, w, 1)


@cuda.jit(cache=True)
def _ranks(sorted_keys, mask, rank):
    """rank[v] = i for v the id in sorted_keys[i]."""
    for i in range(cuda.grid(1), rank.shape[0], cuda.gridsize(1)):
        rank[sorted_keys[i] & mask] = i


@cuda.jit(cache=True)
def _out_degrees(indptr, indices, rank, odeg, odeg_rank):
    """odeg[u] = |{w in N(u): rank w > rank u}| (one thread per vertex); odeg_rank[rank u] too."""
    for u in range(cuda.grid(1), rank.shape[0], cuda.gridsize(1)):
        ru = rank[u]
        c = int64(0)
        for p in range(indptr[u], indptr[u + 1]):
            if rank[indices[p]] > ru:
                c += 1
        odeg[u] = c
        odeg_rank[ru] = c


@cuda.jit(cache=True)
def _arc_keys(indptr, indices, rank, start, bits, keys):
    """keys[start[u] ..] = rank u << bits | rank w for the out-neighbours w of u."""
    for u in range(cuda.grid(1), rank.shape[0], cuda.gridsize(1)):
        ru = rank[u]
        hi = int64(ru) << bits
        q = start[u]
        for p in range(indptr[u], indptr[u + 1]):
            rw = rank[indices[p]]
            if rw > ru:
                keys[q] = hi | rw
                q += 1


@cuda.jit(cache=True)
def _low_ids(keys, mask, oind):
    """oind[j] = the low id bits of keys[j] (the arcs' targets)."""
    for j in range(cuda.grid(1), oind.shape[0], cuda.gridsize(1)):
        oind[j] = keys[j] & mask
