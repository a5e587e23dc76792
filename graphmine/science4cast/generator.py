"""A seeded generator of growing concept graphs in the Science4Cast format.

The model (one batch of rows per year, 1990 up to the last year asked for):

* rows per year grow by ``growth`` a year (default sqrt(2): the edge count doubles about every two
  years), scaled so that about ``edges_per_vertex * n_vertices`` rows exist by ``year_start``;
* concepts are born over time (first mention); each newborn gets two rows to partners chosen by
  activity;
* every vertex has an activity ``(degree + 1) ** alpha * exp(h)`` with a "hotness" ``h`` that
  follows an AR(1) process from year to year (newborn concepts start hot): preferential attachment
  with trends, so a vertex's recent degree growth tells about its future links;
* every concept belongs to one research topic; preferential attachment mostly stays within a
  topic (homophily), which a pair's degrees cannot show but its common neighbours do;
* the rows of a year are a mix of triadic closure (a vertex chosen by activity links to a random
  neighbour of a random neighbour, so pairs with many low-degree common neighbours link first),
  preferential attachment by activity, repeats of rows from the last three years (papers that
  co-mention a known pair again: multigraph weights), a little uniform noise and a few self-loops;
* days are uniform within their year; vertex ids are a random permutation.

Two optional dynamics (off by default): ``topic_drift`` lets every topic's popularity follow a
random walk (a factor ``exp(z_topic)`` on the activity of its concepts), so the topics that grew
in the past are not those that grow next; ``birth_burst`` moves a share of the concept births into
three burst years (new fields opening at once).

:data:`SCENARIOS` names a family of settings that stress different predictors (degrees, degree
growth, common neighbours); :func:`generate_scenario` generates one at a size of
:data:`SCENARIO_SIZES`.
"""

from .._runtime.docs import fill_doc
import numpy as np

from .._primitives.small_work import sort_queries
from ..core.exceptions import ParameterError, check_int, check_seed
from ..core.graph import from_edges
from .io import Science4CastData
from .snapshots import MAX_YEAR, MIN_YEAR, sample_pairs, year_end_day

__all__ = ["generate_temporal_graph", "generate_benchmark", "generate_scenario", "SCENARIOS", "SCENARIO_SIZES"]


def _pick(weights_cum, rng, m):
    """m indices drawn with probability proportional to the weights (given as a cumsum)."""
    if m <= 0 or weights_cum.shape[0] == 0 or weights_cum[-1] <= 0:
        return np.empty(0, np.int64)
    r = rng.random(m) * weights_cum[-1]
    return np.minimum(np.searchsorted(weights_cum, r, side="right"), weights_cum.shape[0] - 1)


def _pick_in_topic(cum_sorted, by_topic, start, end, topics, rng):
    """One vertex per entry of ``topics``, by activity within that topic (cumsum in topic order)."""
    lo = np.where(start[topics] > 0, cum_sorted[np.maximum(start[topics] - 1, 0)], 0.0)
    hi = cum_sorted[end[topics] - 1]
    r = lo + rng.random(topics.shape[0]) * (hi - lo)
    idx = np.searchsorted(cum_sorted, r, side="right")
    idx = np.clip(idx, start[topics], end[topics] - 1)
    return by_topic[idx]


def _random_neighbour(indptr, indices, u, rng):
    deg = indptr[u + 1] - indptr[u]
    off = (rng.random(u.shape[0]) * deg).astype(np.int64)
    return indices[indptr[u] + off].astype(np.int64)


@fill_doc
def generate_temporal_graph(n_vertices=10000, *, last_year=2017, year_start=2014, edges_per_vertex=28,
                            growth=2 ** 0.5, alpha=0.6, triadic=0.5, preferential=0.38, repeats=0.11,
                            self_loops=0.001, hot_memory=0.8, hot_noise=0.5, topic_size=200, homophily=0.95,
                            topic_drift=0.0, birth_burst=0.0, seed=None):
    """Rows ``[v1, v2, t]`` of a synthetic growing concept graph (see the module docstring).

    Parameters
    ----------
    n_vertices : int
        Concepts (10^4 - 10^5 is realistic; at least 50).
    last_year : int
        Rows are generated for 1990 .. ``last_year``.
    year_start : int
        About ``edges_per_vertex * n_vertices`` rows lie before the end of this year.
    edges_per_vertex : float, default 28
        Rows per concept by the end of ``year_start``.
    growth : float
        Factor by which the rows per year grow each year.
    alpha : float
        Exponent of the degree in the activity (heavy tails).
    triadic, preferential, repeats, self_loops : float
        Shares of the yearly rows made by each mechanism (the rest is uniform noise).
    hot_memory, hot_noise : float
        AR(1) coefficient and innovation of the log-hotness.
    topic_size, homophily : float
        Concepts belong to research topics of about ``topic_size`` concepts; a share
        ``homophily`` of the preferential-attachment rows (and of a newborn's rows) stays within the first endpoint's topic.
    topic_drift : float
        Yearly innovation (standard deviation) of every topic's log-popularity, a random walk that
        multiplies the activity of the topic's concepts (0: topics keep their popularity).
    birth_burst : float
        Share (0 <= b < 1) of the concept births moved from the smooth schedule into three burst
        years drawn between 1995 and ``year_start`` (0: smooth births only).
    {rng_seed}

    Returns
    -------
    ndarray of int64, shape (E, 3), rows sorted by day
        Rows ``[v1, v2, t]``, t in days since 1990-01-01.

    Examples
    --------
    >>> rows = generate_temporal_graph(300, last_year=2000, year_start=1999, seed=1)
    >>> rows.shape[1], bool(rows[:, 2].min() >= 0), bool((rows[:, 0] == rows[:, 1]).any())
    (3, True, True)
    """
    check_int("n_vertices", n_vertices, 50)
    if not MIN_YEAR + 2 <= year_start <= last_year <= MAX_YEAR:
        raise ParameterError(f"need {MIN_YEAR + 2} <= year_start <= last_year <= {MAX_YEAR}, "
                             f"got year_start={year_start}, last_year={last_year}")
    shares = (triadic, preferential, repeats, self_loops)
    if min(shares) < 0 or sum(shares) > 1:
        raise ParameterError(f"triadic, preferential, repeats and self_loops must be >= 0 with sum <= 1, "
                             f"got {shares}")
    if not topic_drift >= 0 or not 0 <= birth_burst < 1:
        raise ParameterError(f"topic_drift must be >= 0 and birth_burst in [0, 1), got {topic_drift}, {birth_burst}")
    if not growth >= 1 or not edges_per_vertex > 0:
        raise ParameterError(f"growth must be >= 1 and edges_per_vertex > 0, got {growth}, {edges_per_vertex}")
    rng = check_seed(seed)
    n = int(n_vertices)
    years = np.arange(MIN_YEAR, last_year + 1)
    per_year = growth ** (years - MIN_YEAR).astype(float)
    per_year *= edges_per_vertex * n / per_year[years <= year_start].sum()
    cum = np.cumsum(per_year)
    alive_by = np.maximum(np.minimum(n, 40 + (n * (cum / cum[-1]) ** 0.3).astype(np.int64)), 2)
    if birth_burst > 0:
        # a share of the births happens in three burst years (the rest keeps the smooth schedule)
        bursts = rng.choice(np.arange(1995, max(year_start, 1998) + 1) - MIN_YEAR, 3, replace=False)
        step = np.zeros(years.shape[0])
        for b in bursts:
            step[b:] += 1.0 / 3.0
        alive_by = np.maximum((1 - birth_burst) * alive_by + birth_burst * n * step, 2).astype(np.int64)
        alive_by = np.maximum.accumulate(np.minimum(alive_by, n))
    alive_by[-1] = n
    hot = rng.normal(0.0, hot_noise / np.sqrt(1 - hot_memory ** 2), n)
    n_topics = max(1, int(round(n / topic_size)))
    topic = rng.integers(0, n_topics, n)
    by_topic = np.argsort(topic, kind="stable")
    topic_end = np.cumsum(np.bincount(topic, minlength=n_topics))
    topic_start = topic_end - np.bincount(topic, minlength=n_topics)
    topic_pop = np.zeros(n_topics)
    blocks = []
    rows_so_far = np.empty((0, 2), np.int64)
    year_of_row = np.empty(0, np.int64)
    alive = 0
    for yi, y in enumerate(years):
        born = np.arange(alive, alive_by[yi])
        alive = int(alive_by[yi])
        if hot_noise > 0:   # newborn concepts start hot (no hotness at all without noise)
            hot[born] = rng.normal(0.7, 0.6, born.shape[0])
        G = from_edges(rows_so_far, n_nodes=n)
        deg = G.degree.astype(np.int64)
        act = np.zeros(n)
        act[:alive] = (deg[:alive] + 1.0) ** alpha * np.exp(hot[:alive] + topic_pop[topic[:alive]])
        old_act = act.copy()
        old_act[born] = 0.0
        m = int(round(per_year[yi]))
        parts = []
        # newborn concepts: two rows each to partners chosen by activity
        if born.shape[0] and old_act.sum() > 0:
            nb = np.repeat(born, 2)
            partner = _pick(np.cumsum(old_act), rng, nb.shape[0])
            same = rng.random(nb.shape[0]) < homophily
            partner[same] = _pick_in_topic(np.cumsum(old_act[by_topic]), by_topic, topic_start, topic_end,
                                           topic[nb[same]], rng)
            ok = partner != nb
            parts.append(np.column_stack((nb[ok], partner[ok])))
        m_rest = max(m - sum(p.shape[0] for p in parts), 0)
        n_tri, n_pa, n_rep, n_loop = (rng.binomial(m_rest, s) for s in shares)
        n_uni = max(m_rest - n_tri - n_pa - n_rep - n_loop, 0)
        cum_act = np.cumsum(act)
        # triadic closure: u by activity, then a random walk of two steps
        has_nb = deg > 0
        if n_tri and has_nb.any():
            a_nb = np.where(has_nb, act, 0.0)
            u = _pick(np.cumsum(a_nb), rng, n_tri)
            w = _random_neighbour(G.indptr, G.indices, u, rng)
            v = _random_neighbour(G.indptr, G.indices, w, rng)
            ok = v != u
            parts.append(np.column_stack((u[ok], v[ok])))
        if n_pa:
            u = _pick(cum_act, rng, n_pa)
            v = _pick(cum_act, rng, n_pa)
            same = rng.random(n_pa) < homophily
            v[same] = _pick_in_topic(np.cumsum(act[by_topic]), by_topic, topic_start, topic_end,
                                     topic[u[same]], rng)
            ok = u != v
            parts.append(np.column_stack((u[ok], v[ok])))
        recent = np.flatnonzero(year_of_row >= y - 3)
        if n_rep and recent.shape[0]:
            parts.append(rows_so_far[recent[rng.integers(0, recent.shape[0], n_rep)]])
        if n_loop:
            u = _pick(cum_act, rng, n_loop)
            parts.append(np.column_stack((u, u)))
        if n_uni:
            u = rng.integers(0, alive, n_uni)
            v = rng.integers(0, alive, n_uni)
            ok = u != v
            parts.append(np.column_stack((u[ok], v[ok])))
        new = np.concatenate(parts) if parts else np.empty((0, 2), np.int64)
        flip = rng.random(new.shape[0]) < 0.5
        new = np.where(flip[:, None], new[:, ::-1], new)
        lo = max(year_end_day(y - 1), 0)
        t = rng.integers(lo, year_end_day(y), new.shape[0])
        blocks.append(np.column_stack((new, t)))
        rows_so_far = np.concatenate((rows_so_far, new))
        year_of_row = np.concatenate((year_of_row, np.full(new.shape[0], y)))
        hot = hot_memory * hot + rng.normal(0.0, hot_noise, n)
        if topic_drift > 0:
            topic_pop += rng.normal(0.0, topic_drift, n_topics)
    rows = np.concatenate(blocks)
    perm = rng.permutation(n)
    rows[:, :2] = perm[rows[:, :2]]
    rows = rows[sort_queries(rows[:, 2])[1]]  # by day, ties in generation order (a stable sort)
    return np.ascontiguousarray(rows, dtype=np.int64)


@fill_doc
def generate_benchmark(n_vertices=10000, n_pairs=100000, *, year_start=2014, years_delta=3,
                       vertex_degree_cutoff=0, min_edges=1, seed=None, **graph_kw):
    """A benchmark-format data set: synthetic graph, sampled pairs and their solution.

    The graph covers 1990 .. ``year_start + years_delta`` (like the benchmark files, which hold
    the future needed for the solution); pairs are drawn by
    :func:`~graphmine.science4cast.snapshots.sample_pairs`.

    Parameters
    ----------
    n_vertices : int, default 10000
        Concepts (at least 50).
    n_pairs : int, default 100000
        Pairs to rank.
    year_start, years_delta : int, default 2014 and 3
        The setting.
    vertex_degree_cutoff, min_edges : int, default 0 and 1
        The sampling setting of :func:`~graphmine.science4cast.snapshots.sample_pairs`.
    {rng_seed}
    **graph_kw
        The other keywords of :func:`generate_temporal_graph`.

    Returns
    -------
    Science4CastData
        The benchmark, with its solution.

    Examples
    --------
    >>> d = generate_benchmark(300, 500, year_start=2000, years_delta=2, seed=3)
    >>> d.pairs.shape, d.solution.shape, d.year_start
    ((500, 2), (500,), 2000)
    """
    rng = check_seed(seed)
    rows = generate_temporal_graph(n_vertices, last_year=year_start + years_delta, year_start=year_start,
                                   seed=rng, **graph_kw)
    pairs, sol = sample_pairs(rows, year_start, years_delta, n_pairs, vertex_degree_cutoff, min_edges,
                              n_vertices=n_vertices, seed=rng)
    return Science4CastData(rows, pairs, int(year_start), int(years_delta), sol, int(vertex_degree_cutoff),
                            int(min_edges))


#: Scenario family: name -> (what it stresses, settings of :func:`generate_temporal_graph` that
#: differ from the defaults). The defaults themselves are ``"default"``.
SCENARIOS = {
    "default": ("the generator's defaults: trends, triadic closure, topics without drift", {}),
    "topic_drift": ("topic popularity drifts (random walk, 0.4 a year): past growth misleads",
                    dict(topic_drift=0.4)),
    "pure_pa": ("pure preferential attachment on degree: no closure, topics, hotness or repeats",
                dict(triadic=0.0, preferential=0.95, repeats=0.0, homophily=0.0, hot_noise=0.0, alpha=1.0)),
    "strong_triadic": ("strong triadic closure (80% of the rows)", dict(triadic=0.8, preferential=0.1, repeats=0.05)),
    "weak_triadic": ("weak triadic closure (5% of the rows)", dict(triadic=0.05, preferential=0.8, repeats=0.1)),
    "bursty_births": ("60% of the concepts born in three burst years", dict(birth_burst=0.6)),
    "slow_growth": ("rows per year grow by 1.1 a year", dict(growth=1.1)),
    "fast_growth": ("rows per year grow by 1.7 a year", dict(growth=1.7)),
    "sparse": ("8 rows per concept by year_start", dict(edges_per_vertex=8)),
    "dense": ("80 rows per concept by year_start", dict(edges_per_vertex=80)),
}

#: Sizes of :func:`generate_scenario`: name -> (vertices, pairs to predict).
SCENARIO_SIZES = {"small": (4000, 100_000), "competition": (64719, 1_000_000)}


def generate_scenario(name, size="small", *, year_start=2014, years_delta=3, seed=None):
    """A benchmark-format data set of one scenario of :data:`SCENARIOS` at a size of :data:`SCENARIO_SIZES`.

    Parameters
    ----------
    name : str
        A key of :data:`SCENARIOS`.
    size : {'small', 'competition'} or (n_vertices, n_pairs)
    year_start, years_delta : int
    seed : int or numpy.random.Generator

    Returns
    -------
    Science4CastData

    Examples
    --------
    >>> d = generate_scenario("pure_pa", (300, 500), year_start=2000, years_delta=2, seed=0)
    >>> d.pairs.shape, sorted(SCENARIOS)[:3]
    ((500, 2), ['bursty_births', 'default', 'dense'])
    """
    if name not in SCENARIOS:
        raise ParameterError(f"unknown scenario {name!r}; choose one of {', '.join(SCENARIOS)}")
    if isinstance(size, str):
        if size not in SCENARIO_SIZES:
            raise ParameterError(f"size must be one of {', '.join(SCENARIO_SIZES)} or (n_vertices, n_pairs), "
                                 f"got {size!r}")
        size = SCENARIO_SIZES[size]
    n_vertices, n_pairs = size
    return generate_benchmark(n_vertices, n_pairs, year_start=year_start, years_delta=years_delta, seed=seed,
                              **SCENARIOS[name][1])
