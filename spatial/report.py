"""Energy-depth reports: run the algorithms over a range of sizes, check every result against
numpy/scipy, compare the energy to a lower bound, and check the bounds by ratios.

The same from the command line (``python -m spatial report``) and from Python
(:func:`run_report`). An algorithm states its bounds as functions: energy ``O(f(n))`` and depth
``O(g(n))``. A bound holds when the ratio ``energy / f(n)`` stays bounded, so the report checks
that the ratio does not grow: :func:`ratio_growth` divides the ratio at the largest size by the
largest ratio at the sizes up to the geometric middle of the range, and a growth above
``1 + GROWTH_TOLERANCE`` (``1.15``) flags the bound. Over ``2**10 .. 2**20`` an ``n log n``
energy checked against ``n`` grows ``20/15 = 1.33`` and is flagged, where a log-log exponent
(``1.099``) would have passed it as linear; a ``log^2 n`` depth checked against ``log n`` is
flagged the same way. Lower-order terms (``1.5 n - O(sqrt n)``) settle long before the middle
of the range.

An algorithm is *within its bounds* when every result is correct, no run spends less energy
than the lower bound, both ratios are bounded, and its peak local memory (``max_words``) does not
grow with ``n``. Each fit also names, among candidate growth models, the one whose ratio is
flattest (``best_energy_model``, ``best_depth_model``), and keeps the log-log exponents for
reference.
"""

import json
import math
import sys
import time
from dataclasses import dataclass

import numpy as np

from ._common import check_int, seed_rng
from .collectives import broadcast, reduce, scan
from .exceptions import SpatialInputError, SpatialTypeError
from .selection import select
from .sorting import sort, sort_lower_bound
from .matmul import matmul, matmul_lower_bound
from .spmv import spmv, spmv_lower_bound

__all__ = ["ALGORITHMS", "GROWTH_TOLERANCE", "Report", "parse_sizes", "ratio_growth",
           "run_report"]

GROWTH_TOLERANCE = 0.15
"""A ratio may grow by this fraction across the upper half of the sizes and still count as
bounded (noise of randomised algorithms, lower-order terms)."""


def _lg(n):
    return np.log2(np.maximum(n, 2))


@dataclass(frozen=True)
class _Algorithm:
    name: str
    energy_bound: str
    energy_model: object          # n -> leading term of the energy bound
    depth_bound: str
    depth_model: object           # n -> depth bound's growth
    run: object                   # (n, rng) -> (Result, correct, lower_bound)
    randomised: bool = False      # cost depends on the seed: report the mean of trials


def _ints(n, rng):
    return rng.integers(-1000, 1001, size=n)


def _run_broadcast(layout):
    def run(n, rng):
        value = int(rng.integers(-1000, 1001))
        r = broadcast(value, n, layout=layout)
        return r, bool(np.all(r.value == value)), n - 1
    return run


def _run_reduce(layout):
    def run(n, rng):
        x = _ints(n, rng)
        r = reduce(x, np.add, layout=layout)
        return r, bool(r.value == np.add.reduce(x)), n - 1
    return run


def _run_scan(method, layout):
    def run(n, rng):
        x = _ints(n, rng)
        r = scan(x, np.add, method=method, layout=layout)
        return r, bool(np.array_equal(r.value, np.cumsum(x))), n - 1
    return run


def _run_select(method):
    def run(n, rng):
        x = rng.integers(-n, n + 1, size=n).astype(np.float64) / 4   # duplicates, negatives
        k = n // 2
        r = select(x, k, method=method, seed=rng)
        return r, bool(r.value == np.partition(x, k)[k]), n - 1
    return run


def _run_sort(layout):
    def run(n, rng):
        x = rng.normal(size=n)
        r = sort(x, layout=layout)
        return r, bool(np.array_equal(r.value, np.sort(x))), sort_lower_bound(x, layout)
    return run


def random_sparse(n, rng):
    """A random square matrix with exactly ``n`` nonzeros, about 8 per row (``n >= 1``)."""
    import scipy.sparse as sp
    d = max(n // 8, math.isqrt(n - 1) + 1)
    keys = np.unique(rng.integers(0, d * d, size=2 * n + 16))
    while keys.size < n:                        # rare: too many collisions, draw again
        keys = np.unique(np.concatenate([keys, rng.integers(0, d * d, size=n)]))
    keys = rng.choice(keys, size=n, replace=False)
    return sp.csr_matrix((rng.normal(size=n), (keys // d, keys % d)), shape=(d, d))


def _run_spmv(method):
    def run(n, rng):
        a = random_sparse(n, rng)
        x = rng.normal(size=a.shape[1])
        r = spmv(a, x, method=method)
        return r, bool(np.allclose(r.value, a @ x)), spmv_lower_bound(a)
    return run


def _run_matmul():
    def run(n, rng):
        side = max(1, math.isqrt(n))
        a = rng.integers(-9, 10, size=(side, side))
        b = rng.integers(-9, 10, size=(side, side))
        r = matmul(a, b)
        return r, bool(np.array_equal(r.value, a @ b)), matmul_lower_bound(side)
    return run


def _n(n):
    return n


def _n_log(n):
    return n * _lg(n)


def _n15(n):
    return n ** 1.5


def _n15_log(n):
    return n ** 1.5 * _lg(n)


def _log(n):
    return _lg(n)


def _log2sq(n):
    return _lg(n) ** 2


def _bitonic_depth(n):
    lg = np.ceil(_lg(n))
    return lg * (lg + 1) / 2


def _one(n):
    return np.ones_like(np.asarray(n, dtype=float))


def _n2(n):
    return np.asarray(n, dtype=float) ** 2


def _sqrt(n):
    return np.sqrt(np.asarray(n, dtype=float))


ENERGY_MODELS = {"n": _n, "n log n": _n_log, "n^1.5": _n15, "n^1.5 log n": _n15_log,
                 "n^2": _n2}
"""Candidate energy growths the report compares (by the flatness of ``energy / f(n)``)."""

DEPTH_MODELS = {"1": _one, "log n": _log, "log^2 n": _log2sq, "sqrt n": _sqrt, "n": _n}
"""Candidate depth growths the report compares."""


def _ratio_and_base(n, values, model):
    """``values / model(n)`` and its largest value at the sizes up to ``sqrt(n_min n_max)``."""
    r = np.asarray(values, dtype=float) / np.maximum(model(n), 1e-300)
    return r, r[n <= math.sqrt(n.min() * n.max()) * (1 + 1e-9)].max()


def ratio_growth(n, values, model):
    """How much ``values / model(n)`` grows over the upper half of the sizes.

    The ratio at the largest ``n`` divided by the largest ratio among the sizes up to the
    geometric middle of the range (``sqrt(n_min n_max)``). About 1 (or less) for a bound that
    holds; ``log(n_max) / log(n_mid)`` for a ``log n`` factor too many (``1.33`` over ``2**10
    .. 2**20``).

    Parameters
    ----------
    n : array_like
        Sizes (at least two distinct).
    values : array_like
        Measured energies or depths.
    model : callable
        ``n -> f(n)``, the bound's growth.

    Returns
    -------
    float or None
        None with fewer than two distinct sizes.

    Examples
    --------
    >>> n = 2.0 ** np.arange(10, 21)
    >>> round(ratio_growth(n, n * np.log2(n), lambda v: v), 3)     # n log n is not O(n)
    1.333
    >>> round(ratio_growth(n, 1.5 * n - np.sqrt(n), lambda v: v), 3)
    1.003
    """
    n = np.asarray(n, dtype=float)
    if np.unique(n).size < 2:
        return None
    r, base = _ratio_and_base(n, values, model)
    top = r[n == n.max()].max()
    if base <= 0:
        return None if top <= 0 else float("inf")
    return float(top / base)


def _best_model(n, values, models):
    """The candidate whose ratio is flattest over the upper half (growth closest to 1)."""
    best, score = None, None
    for name, f in models.items():
        g = ratio_growth(n, values, f)
        if g is None or not np.isfinite(g) or g <= 0:
            continue
        d = abs(math.log(g))
        if score is None or d < score:
            best, score = name, d
    return best


ALGORITHMS = {a.name: a for a in [
    _Algorithm("broadcast", "Theta(n)", _n, "O(log n)", _log, _run_broadcast("z-order")),
    _Algorithm("broadcast_line", "Theta(n log n)", _n_log, "O(log n)", _log,
               _run_broadcast("line")),
    _Algorithm("reduce", "Theta(n)", _n, "O(log n)", _log, _run_reduce("z-order")),
    _Algorithm("reduce_line", "Theta(n log n)", _n_log, "O(log n)", _log, _run_reduce("line")),
    _Algorithm("scan", "Theta(n)", _n, "O(log n)", _log, _run_scan("tree", "z-order")),
    _Algorithm("scan_chain", "Theta(n)", _n, "Theta(n)", _n, _run_scan("chain", "line")),
    _Algorithm("select", "Theta(n)", _n, "O(log^2 n)", _log2sq, _run_select("sample"),
               randomised=True),
    _Algorithm("select_sort", "Theta(n^1.5)", _n15, "O(log^2 n)", _log2sq,
               _run_select("sort")),
    _Algorithm("sort", "Theta(n^1.5)", _n15, "L(L+1)/2", _bitonic_depth, _run_sort("z-order")),
    _Algorithm("sort_rowmajor", "Theta(n^1.5 log n)", _n15_log, "L(L+1)/2", _bitonic_depth,
               _run_sort("row-major")),
    _Algorithm("spmv", "O(P^1.5)", _n15, "O(log^2 n)", _log2sq, _run_spmv("sort")),
    _Algorithm("spmv_direct", "O(nnz sqrt(P))", _n15, "O(log n)", _log, _run_spmv("direct")),
    _Algorithm("matmul", "Theta(n^1.5)", _n15, "Theta(sqrt n)", _sqrt, _run_matmul()),
]}
"""The algorithms a report can run, by name (``spatial.report.ALGORITHMS``)."""


def parse_sizes(text):
    """Parse a size list: ``"2^8..2^20"`` (every power of two between), ``"256,1024"``,
    ``"2^10,5000"`` or a mix.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of int
        Sorted, distinct sizes.

    Examples
    --------
    >>> parse_sizes("2^8..2^11")
    [256, 512, 1024, 2048]
    >>> parse_sizes("1000, 2^4")
    [16, 1000]
    """
    if not isinstance(text, str):
        raise SpatialTypeError(f"sizes must be a string, got {type(text).__name__}")

    def one(tok):
        tok = tok.strip()
        try:
            if "^" in tok:
                base, exp = tok.split("^")
                value = int(base) ** int(exp)
            else:
                value = int(tok)
        except ValueError:
            raise SpatialInputError(
                f"sizes: cannot read {tok!r}; use forms like 2^8..2^20 or 256,1024") from None
        if value < 1:
            raise SpatialInputError(f"sizes must be >= 1, got {tok!r}")
        return value

    out = set()
    for part in text.split(","):
        if not part.strip():
            continue
        if ".." in part:
            lo_tok, hi_tok = part.split("..", 1)
            lo, hi = one(lo_tok), one(hi_tok)
            if lo & (lo - 1) or hi & (hi - 1) or lo > hi:
                raise SpatialInputError(
                    f"sizes: a range needs two powers of two, low first, got {part.strip()!r}")
            out.update(1 << e for e in range(lo.bit_length() - 1, hi.bit_length()))
        else:
            out.add(one(part))
    if not out:
        raise SpatialInputError("sizes: no size given")
    return sorted(out)


def _slope(n, v):
    n = np.asarray(n, dtype=float)
    v = np.asarray(v, dtype=float)
    ok = v > 0
    if np.unique(n[ok]).size < 2:
        return None
    return float(np.polyfit(np.log(n[ok]), np.log(v[ok]), 1)[0])


class Report:
    """Rows (one per algorithm and size) and fits (one per algorithm) of a report run.

    Attributes
    ----------
    rows : list of dict
        ``algorithm, n, processors, layout, energy, words, depth, distance, messages,
        max_sent, max_recv, contention, rounds, max_words, max_message_words, lower_bound,
        energy_ratio, energy_per_model, depth_per_model, correct, seconds, trials,
        above_lower_bound`` (and ``energy_min``, ``energy_max`` for randomised algorithms,
        whose metrics are means over the trials; ``max_words`` and ``max_message_words`` are
        the largest over the trials). ``energy`` counts words x distance, ``words`` the words
        moved, ``max_words`` the peak words one processor held.
    fits : list of dict
        ``algorithm, energy_bound, depth_bound, energy_ratio_growth, depth_ratio_growth,
        energy_bounded, depth_bounded, memory_constant, best_energy_model, best_depth_model,
        energy_constant, depth_constant, max_words, energy_exponent, depth_exponent,
        expected_energy_exponent, expected_depth_exponent, within_bounds``.

    Parameters
    ----------
    rows, fits : list of dict
        As the attributes (made by :func:`run_report`).

    Examples
    --------
    >>> rep = Report([{"algorithm": "scan", "n": 4, "energy": 7}], [])
    >>> rep.to_dict()
    {'rows': [{'algorithm': 'scan', 'n': 4, 'energy': 7}], 'fits': []}
    """

    def __init__(self, rows, fits):
        self.rows = rows
        self.fits = fits

    def to_dict(self):
        """``{"rows": [...], "fits": [...]}`` (JSON-ready)."""
        return {"rows": self.rows, "fits": self.fits}

    def to_json(self, **kwargs):
        """The report as a JSON string."""
        return json.dumps(self.to_dict(), **kwargs)

    @property
    def all_within_bounds(self):
        """True when every algorithm's fit is within its bounds."""
        return all(f["within_bounds"] for f in self.fits)

    def table(self):
        """The report as aligned text tables (rows, then fits)."""
        head = ("algorithm", "n", "energy", "words", "depth", "distance", "messages",
                "max_words", "lower_bnd", "E/LB", "E/f(n)", "D/g(n)", "ok", "sec")
        lines = [head]
        for r in self.rows:
            lines.append((r["algorithm"], str(r["n"]), _num(r["energy"]), _num(r["words"]),
                          _num(r["depth"]), _num(r["distance"]), _num(r["messages"]),
                          _num(r["max_words"]), str(r["lower_bound"]),
                          "-" if r["energy_ratio"] is None else f"{r['energy_ratio']:.2f}",
                          f"{r['energy_per_model']:.3f}", f"{r['depth_per_model']:.3f}",
                          "yes" if r["correct"] else "NO", f"{r['seconds']:.2f}"))
        out = _align(lines)
        fhead = ("algorithm", "energy bound", "E/f growth", "flattest E", "depth bound",
                 "D/g growth", "flattest D", "E/f(n) at max n", "max_words", "within")
        flines = [fhead]
        for f in self.fits:
            flines.append((f["algorithm"], f["energy_bound"],
                           _fmt(f["energy_ratio_growth"]) + ("" if f["energy_bounded"]
                                                             else " GROWS"),
                           str(f["best_energy_model"]), f["depth_bound"],
                           _fmt(f["depth_ratio_growth"]) + ("" if f["depth_bounded"]
                                                            else " GROWS"),
                           str(f["best_depth_model"]), f"{f['energy_constant']:.3f}",
                           str(f["max_words"]), "yes" if f["within_bounds"] else "NO"))
        return out + "\n\n" + _align(flines)

    def plot(self, path=None, algorithms=None):
        """Log-log plots: per algorithm energy with its lower bound and ``c f(n)`` (the bound
        with the measured constant, titled with the ratio check), one panel of all depths, and
        two panels of the ratios ``energy / f(n)`` and ``depth / g(n)``, each divided by its
        largest value up to the middle of the sizes (flat lines hold their bound; a line
        climbing past 1.15 is flagged).

        Parameters
        ----------
        path : str or path-like, optional
            Write a PNG there (nothing is written when omitted).
        algorithms : list of str, optional
            Subset to draw (default: all in the report).

        Returns
        -------
        matplotlib.figure.Figure
        """
        import matplotlib.pyplot as plt
        names = algorithms or [f["algorithm"] for f in self.fits]
        cols = 3
        panels = len(names) + 3
        nrows = (panels + cols - 1) // cols
        fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.3 * nrows), squeeze=False)
        axes = axes.ravel()
        for ax, name in zip(axes, names):
            rows = [r for r in self.rows if r["algorithm"] == name]
            n = np.array([r["n"] for r in rows], dtype=float)
            e = np.array([r["energy"] for r in rows], dtype=float)
            lb = np.array([r["lower_bound"] for r in rows], dtype=float)
            alg = ALGORITHMS[name]
            fit = next(f for f in self.fits if f["algorithm"] == name)
            ax.loglog(n, e, "o-", label="energy")
            if np.any(lb > 0):
                ax.loglog(n[lb > 0], lb[lb > 0], "k--", label="lower bound")
            ax.loglog(n, fit["energy_constant"] * alg.energy_model(n), ":",
                      label=f"{fit['energy_constant']:.2f} {alg.energy_bound[6:-1] or 'f(n)'}"
                      if alg.energy_bound.startswith("Theta(") else
                      f"{fit['energy_constant']:.2f} f(n)")
            flag = "" if fit["energy_bounded"] else " GROWS"
            ax.set_title(f"{name}: E/f(n) growth {_fmt(fit['energy_ratio_growth'])}{flag}",
                         fontsize=9)
            ax.set_xlabel("n")
            ax.legend(fontsize=7)
        ax = axes[len(names)]
        for name in names:
            rows = [r for r in self.rows if r["algorithm"] == name]
            ax.loglog([r["n"] for r in rows], [max(r["depth"], 1) for r in rows], "o-",
                      label=name, markersize=3)
        ax.set_title("depth (hops)", fontsize=9)
        ax.set_xlabel("n")
        ax.legend(fontsize=6, ncol=2)
        for ax, key, model in ((axes[len(names) + 1], "energy", "energy_model"),
                               (axes[len(names) + 2], "depth", "depth_model")):
            for name in names:
                rows = [r for r in self.rows if r["algorithm"] == name and r["n"] > 1]
                if len(rows) < 2:
                    continue
                n = np.array([r["n"] for r in rows], dtype=float)
                ratio, base = _ratio_and_base(n, [r[key] for r in rows],
                                              getattr(ALGORITHMS[name], model))
                if base > 0:
                    ax.semilogx(n, ratio / base, "o-", label=name, markersize=3)
            ax.axhline(1 + GROWTH_TOLERANCE, color="k", ls="--", lw=0.8)
            ax.set_title(f"{key} / bound, relative (flat = bound holds)", fontsize=9)
            ax.set_xlabel("n")
            ax.legend(fontsize=6, ncol=2)
        for ax in axes[panels:]:
            ax.set_visible(False)
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=110)
        return fig


def _num(v):
    return str(v) if isinstance(v, int) else f"{v:.1f}"


def _fmt(v):
    return "-" if v is None else f"{v:.3f}"


def _align(lines):
    widths = [max(len(row[i]) for row in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w)
                               for i, (c, w) in enumerate(zip(row, widths))) for row in lines)


def run_report(algorithms=None, sizes=None, *, seed=0, trials=3, progress=False):
    """Run algorithms over sizes, check results, fit exponents.

    Parameters
    ----------
    algorithms : list of str or str, optional
        Names from :data:`ALGORITHMS` (a comma-separated string works); default all.
    sizes : list of int or str, optional
        Sizes ``n`` (elements; nonzeros for SpMV), or a string for :func:`parse_sizes`;
        default ``2^8..2^16``.
    seed : int
        Seed of the random inputs (and of the selection's random choices).
    trials : int
        Runs per size of a randomised algorithm (``select``), whose bound is on the expected
        energy: its row reports the means (and ``energy_min`` / ``energy_max``), ``correct``
        only if every run was. Deterministic algorithms run once.
    progress : bool
        Print one line per run on stderr.

    Returns
    -------
    Report

    Examples
    --------
    >>> rep = run_report(["scan", "sort"], "2^8..2^12")
    >>> [(r["algorithm"], r["n"], r["energy"], r["max_words"]) for r in rep.rows][:2]
    [('scan', 256, 1050, 3), ('scan', 512, 2162, 3)]
    >>> rep.all_within_bounds, sorted(rep.to_dict())
    (True, ['fits', 'rows'])
    """
    if algorithms is None:
        names = list(ALGORITHMS)
    else:
        if isinstance(algorithms, str):
            algorithms = [a for a in algorithms.split(",") if a.strip()]
        names = [a.strip() for a in algorithms]
        unknown = [a for a in names if a not in ALGORITHMS]
        if unknown or not names:
            raise SpatialInputError(
                f"unknown algorithm(s) {unknown}; choose from {sorted(ALGORITHMS)}")
    if sizes is None:
        sizes = parse_sizes("2^8..2^16")
    elif isinstance(sizes, str):
        sizes = parse_sizes(sizes)
    else:
        sizes = sorted({check_int(s, "size", low=1) for s in sizes})
    seed = check_int(seed, "seed", low=0)
    trials = check_int(trials, "trials", low=1)
    rows, fits = [], []
    for name in names:
        alg = ALGORITHMS[name]
        rng = seed_rng(seed)
        for n in sizes:
            runs = []
            for _ in range(trials if alg.randomised else 1):
                if progress:
                    print(f"[spatial] {name:14s} n={n:<9d}", end="", file=sys.stderr,
                          flush=True)
                t0 = time.perf_counter()
                res, correct, lower = alg.run(n, rng)
                dt = time.perf_counter() - t0
                if progress:
                    print(f" {dt:7.2f} s  energy={res.metrics.energy}  "
                          f"depth={res.metrics.depth}", file=sys.stderr)
                runs.append((res, correct, lower, dt))
            rows.append(_row(name, alg, runs))
        fits.append(_fit(name, alg, [r for r in rows if r["algorithm"] == name]))
    return Report(rows, fits)


def _row(name, alg, runs):
    res = runs[0][0]
    mets = [r[0].metrics.as_dict() for r in runs]
    if len(runs) == 1:
        met = mets[0]
    else:
        met = {k: float(np.mean([m[k] for m in mets])) for k in mets[0]}
        for k in ("max_words", "max_message_words"):
            met[k] = max(m[k] for m in mets)
    lower = min(r[2] for r in runs)
    energy = met["energy"]
    n = float(res.n)
    row = {
        "algorithm": name, "n": int(res.n), "processors": int(res.n_processors),
        "layout": res.layout, **met,
        "lower_bound": int(lower),
        "energy_ratio": (energy / lower) if lower > 0 else None,
        "energy_per_model": float(energy / alg.energy_model(n)) if res.n > 1 else 0.0,
        "depth_per_model": float(met["depth"] / max(float(alg.depth_model(n)), 1e-300))
        if res.n > 1 else 0.0,
        "correct": all(bool(r[1]) for r in runs),
        "seconds": round(sum(r[3] for r in runs) / len(runs), 4),
        "trials": len(runs),
    }
    if len(runs) > 1:
        row["energy_min"] = min(m["energy"] for m in mets)
        row["energy_max"] = max(m["energy"] for m in mets)
    # Every single run must respect the lower bound, not only the mean.
    row["above_lower_bound"] = all(r[0].metrics.energy >= r[2] for r in runs)
    return row


def _fit(name, alg, mine):
    mine = [r for r in mine if r["n"] > 1]
    n = np.array([r["n"] for r in mine], dtype=float)
    e = np.array([r["energy"] for r in mine], dtype=float)
    d = np.array([r["depth"] for r in mine], dtype=float)
    w = np.array([r["max_words"] for r in mine], dtype=float)
    e_growth = ratio_growth(n, e, alg.energy_model)
    d_growth = ratio_growth(n, d, alg.depth_model)
    e_ok = e_growth is None or e_growth <= 1 + GROWTH_TOLERANCE
    d_ok = d_growth is None or d_growth <= 1 + GROWTH_TOLERANCE
    w_growth = ratio_growth(n, w, _one)
    mem_ok = w_growth is None or w_growth <= 1.0
    within = all(r["correct"] and r["above_lower_bound"] for r in mine) and e_ok and d_ok \
        and mem_ok
    return {
        "algorithm": name, "energy_bound": alg.energy_bound, "depth_bound": alg.depth_bound,
        "energy_ratio_growth": e_growth, "depth_ratio_growth": d_growth,
        "energy_bounded": bool(e_ok), "depth_bounded": bool(d_ok),
        "memory_constant": bool(mem_ok),
        "best_energy_model": _best_model(n, e, ENERGY_MODELS),
        "best_depth_model": _best_model(n, d, DEPTH_MODELS),
        "energy_constant": mine[-1]["energy_per_model"] if mine else 0.0,
        "depth_constant": mine[-1]["depth_per_model"] if mine else 0.0,
        "max_words": int(w.max(initial=0)),
        "energy_exponent": _slope(n, e), "depth_exponent": _slope(n, d),
        "expected_energy_exponent": _slope(n, alg.energy_model(n)),
        "expected_depth_exponent": _slope(n, alg.depth_model(n)),
        "within_bounds": bool(within),
    }
