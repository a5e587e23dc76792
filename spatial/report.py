"""Energy-depth reports: run the algorithms over a range of sizes, check every result against
numpy/scipy, compare the energy to a lower bound, and fit growth exponents.

The same from the command line (``python -m spatial report``) and from Python
(:func:`run_report`). For every algorithm the report fits ``energy ~ n^a`` and ``depth ~ n^b`` by
least squares on log-log axes and compares them with the exponents the stated bound predicts
over the same sizes (``n`` gives 1, ``n^{3/2}`` gives 1.5, ``n log n`` a little above 1 on a
finite range): an algorithm is *within its bounds* when every result is correct, no energy is
below its lower bound, the energy exponent is within 0.1 of the bound's and the depth exponent
at most 0.1 above it.
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
from .spmv import spmv, spmv_lower_bound

__all__ = ["ALGORITHMS", "Report", "parse_sizes", "run_report"]

_TOLERANCE = 0.1


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


ALGORITHMS = {a.name: a for a in [
    _Algorithm("broadcast", "Theta(n)", _n, "O(log n)", _log, _run_broadcast("z-order")),
    _Algorithm("broadcast_line", "Theta(n log n)", _n_log, "O(log n)", _log,
               _run_broadcast("line")),
    _Algorithm("reduce", "Theta(n)", _n, "O(log n)", _log, _run_reduce("z-order")),
    _Algorithm("reduce_line", "Theta(n log n)", _n_log, "O(log n)", _log, _run_reduce("line")),
    _Algorithm("scan", "Theta(n)", _n, "O(log n)", _log, _run_scan("tree", "z-order")),
    _Algorithm("scan_chain", "Theta(n)", _n, "Theta(n)", _n, _run_scan("chain", "line")),
    _Algorithm("select", "Theta(n)", _n, "O(log^2 n)", _log2sq, _run_select("quickselect"),
               randomised=True),
    _Algorithm("select_sort", "Theta(n^1.5)", _n15, "O(log^2 n)", _log2sq,
               _run_select("sort")),
    _Algorithm("sort", "Theta(n^1.5)", _n15, "L(L+1)/2", _bitonic_depth, _run_sort("z-order")),
    _Algorithm("sort_rowmajor", "Theta(n^1.5 log n)", _n15_log, "L(L+1)/2", _bitonic_depth,
               _run_sort("row-major")),
    _Algorithm("spmv", "O(P^1.5)", _n15, "O(log^2 n)", _log2sq, _run_spmv("sort")),
    _Algorithm("spmv_direct", "O(nnz sqrt(P))", _n15, "O(1)", _one, _run_spmv("direct")),
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
        ``algorithm, n, processors, layout, energy, depth, distance, messages, max_sent,
        max_recv, contention, rounds, lower_bound, energy_ratio, energy_per_model, correct, seconds,
        trials, above_lower_bound`` (and ``energy_min``, ``energy_max`` for randomised
        algorithms, whose metrics are means over the trials).
    fits : list of dict
        ``algorithm, energy_exponent, depth_exponent, expected_energy_exponent,
        expected_depth_exponent, energy_bound, depth_bound, energy_constant, within_bounds``.
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
        head = ("algorithm", "n", "energy", "depth", "distance", "messages", "contention",
                "lower_bnd", "E/LB", "E/f(n)", "ok", "sec")
        lines = [head]
        for r in self.rows:
            lines.append((r["algorithm"], str(r["n"]), _num(r["energy"]), _num(r["depth"]),
                          _num(r["distance"]), _num(r["messages"]),
                          _num(r["contention"]), str(r["lower_bound"]),
                          "-" if r["energy_ratio"] is None else f"{r['energy_ratio']:.2f}",
                          f"{r['energy_per_model']:.3f}", "yes" if r["correct"] else "NO",
                          f"{r['seconds']:.2f}"))
        out = _align(lines)
        fhead = ("algorithm", "energy bound", "E exp", "expected", "depth bound", "D exp",
                 "expected", "E/f(n) at max n", "within")
        flines = [fhead]
        for f in self.fits:
            flines.append((f["algorithm"], f["energy_bound"], _fmt(f["energy_exponent"]),
                           _fmt(f["expected_energy_exponent"]), f["depth_bound"],
                           _fmt(f["depth_exponent"]), _fmt(f["expected_depth_exponent"]),
                           f"{f['energy_constant']:.3f}", "yes" if f["within_bounds"] else "NO"))
        return out + "\n\n" + _align(flines)

    def plot(self, path=None, algorithms=None):
        """Log-log plots: per algorithm energy with its lower bound and ``c f(n)`` (the bound
        with the measured constant), and one panel of all depths.

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
        panels = len(names) + 1
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
            ax.set_title(f"{name}: E ~ n^{_fmt(fit['energy_exponent'])}", fontsize=9)
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
    >>> [(r["algorithm"], r["n"], r["energy"]) for r in rep.rows][:2]
    [('scan', 256, 720), ('scan', 512, 1472)]
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
    lower = min(r[2] for r in runs)
    energy = met["energy"]
    row = {
        "algorithm": name, "n": int(res.n), "processors": int(res.n_processors),
        "layout": res.layout, **met,
        "lower_bound": int(lower),
        "energy_ratio": (energy / lower) if lower > 0 else None,
        "energy_per_model": float(energy / alg.energy_model(float(res.n))) if res.n > 1
        else 0.0,
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
    n = np.array([r["n"] for r in mine], dtype=float)
    e_exp = _slope(n, [r["energy"] for r in mine])
    d_exp = _slope(n, [r["depth"] for r in mine])
    want_e = _slope(n, alg.energy_model(n))
    want_d = _slope(n, alg.depth_model(n))
    within = all(r["correct"] and r["above_lower_bound"] for r in mine)
    if e_exp is not None and want_e is not None:
        within = within and abs(e_exp - want_e) <= _TOLERANCE
    if d_exp is not None and want_d is not None:
        within = within and d_exp <= want_d + _TOLERANCE
    return {
        "algorithm": name, "energy_exponent": e_exp, "depth_exponent": d_exp,
        "expected_energy_exponent": want_e, "expected_depth_exponent": want_d,
        "energy_bound": alg.energy_bound, "depth_bound": alg.depth_bound,
        "energy_constant": mine[-1]["energy_per_model"], "within_bounds": bool(within),
    }
