"""From a user's own timestamped events to a Science4Cast data set.

Every pair of vertices inside an item (a paper's concepts, a question's tags, a bill's sponsors,
a timestamped edge) becomes one row ``[u, v, day]`` of ``full_dynamic_graph_sparse``, exactly as a
paper links its concepts in Science4Cast; a pair named by several items gives several rows (its
multigraph weight). The events' times become the benchmark's days since 1990-01-01 by one of two
rules (``time_map``):

* ``'calendar'``: the times are real dates: ISO dates, or numbers in the events' ``time_unit``
  (seconds, milliseconds or days) since ``origin`` (default 1970-01-01, the Unix epoch);
* ``'linear'``: the first time becomes January 1 of ``span[0]`` and the last December 30 of
  ``span[1]`` (default 1994..2020), linearly in between; for data whose times are not dates
  (ScHoLP's normalised milliseconds, a contact network's seconds, Julia day counts);
* ``'rank'``: as 'linear', but over the items' rank in time instead of the time itself (the
  i-th of N items goes to the fraction i / (N - 1) of the span; items of equal time share the
  first one's day), so every stretch of the span holds the same number of items. Recordings with
  long quiet stretches (nights and weekends of a contact network, a gap of years in an e-mail
  archive) otherwise leave past windows without a single new link.

``'auto'`` takes 'calendar' when the times are dates, or have a unit and all fall in
1990..2200 on the calendar, and 'linear' otherwise.

The cut is a year (``year_start``: the graph "at year_start" holds the rows before December 31
of that year) or a time in the events' own units (``cut``: the year whose end is nearest to it
after mapping). Pairs are sampled by :func:`~graphmine.science4cast.snapshots.sample_pairs`
(``vertex_degree_cutoff``, ``min_edges``, ``seed``). When the events reach the end of
``year_start + years_delta`` the result carries the solution (a benchmark data set, 7 items);
otherwise it has none (a competition data set, 4 items), for prediction on a user's own data.

Vertices are numbered 0..n-1 in increasing order of their original ids; ``node_ids`` of the
result maps them back.
"""

import logging
from datetime import date

import numpy as np

from ..io.events import DAYS_PER_UNIT, TemporalEvents, read_events
from ..core.exceptions import ParameterError, check_int, warn_at_caller
from ._progress import LOGGER_NAME
from .io import Science4CastData
from .snapshots import MAX_DAY, MAX_YEAR, MIN_YEAR, ORIGIN, sample_pairs, unconnected_pair_count, year_end_day

__all__ = ["build_benchmark", "map_times", "TIME_MAPS"]

_log = logging.getLogger(LOGGER_NAME)

#: Rules of :func:`map_times`.
TIME_MAPS = ("auto", "calendar", "linear", "rank")
_EPOCH_1990 = (ORIGIN - date(1970, 1, 1)).days   # days from 1970-01-01 to 1990-01-01


def _origin_days(origin):
    """Days from 1970-01-01 to ``origin`` (a date, or an ISO string)."""
    if isinstance(origin, date):
        d = origin
    else:
        try:
            d = date.fromisoformat(str(origin))
        except ValueError:
            raise ParameterError(f"origin must be a date YYYY-MM-DD, got {origin!r}") from None
    return (d - date(1970, 1, 1)).days


def _check_span(span):
    try:
        a, b = (int(x) for x in span)
    except (TypeError, ValueError):
        raise ParameterError(f"span must be two years (first, last), got {span!r}") from None
    if not MIN_YEAR <= a < b <= MAX_YEAR:
        raise ParameterError(f"span must be two years first < last within {MIN_YEAR}..{MAX_YEAR}, got {span!r}")
    return a, b


class _TimeMap:
    """Events' times -> benchmark days (since 1990-01-01), and back (for messages)."""

    def __init__(self, events, time_map, span, origin):
        if time_map not in TIME_MAPS:
            raise ParameterError(f"time_map must be one of {', '.join(TIME_MAPS)}, got {time_map!r}")
        self.unit = events.time_unit
        t = events.times
        self.sorted_times = t
        self.tmin = float(t[0]) if t.shape[0] else 0.0
        self.tmax = float(t[-1]) if t.shape[0] else 0.0
        self.origin = _origin_days(origin)
        if time_map == "auto":
            ok = self.unit is not None and all(0 <= self._calendar(x) <= MAX_DAY for x in (self.tmin, self.tmax))
            time_map = "calendar" if ok else "linear"
        if time_map == "calendar":
            if self.unit is None:
                raise ParameterError("time_map='calendar' needs times with a unit: read the events with "
                                     "time_unit='s', 'ms', 'days' or 'date' (or use time_map='linear')")
            lo, hi = self._calendar(self.tmin), self._calendar(self.tmax)
            if lo < 0 or hi > MAX_DAY:
                raise ParameterError(f"on the calendar the events span days {lo:.0f}..{hi:.0f} since 1990-01-01, "
                                     f"outside 0..{MAX_DAY} (1990..{MAX_YEAR}); use time_map='linear' or another origin")
        self.kind = time_map
        self.span = _check_span(span)
        self.d0 = (date(self.span[0], 1, 1) - ORIGIN).days
        self.d1 = year_end_day(self.span[1]) - 1

    def _calendar(self, t):
        per = DAYS_PER_UNIT[self.unit]
        origin = 0 if self.unit == "date" else self.origin
        return t * per + origin - _EPOCH_1990

    def days(self, t):
        """Benchmark days (int64) of times ``t``."""
        t = np.asarray(t, dtype=np.float64)
        if self.kind == "calendar":
            return np.floor(self._calendar(t)).astype(np.int64)
        if self.kind == "rank":
            n = self.sorted_times.shape[0]
            r = np.searchsorted(self.sorted_times, t, side="left").astype(np.float64)
            return (self.d0 + np.floor(r / max(n - 1, 1) * (self.d1 - self.d0))).astype(np.int64)
        if self.tmax == self.tmin:
            return np.full(t.shape, self.d0, np.int64)
        x = (t - self.tmin) / (self.tmax - self.tmin)
        return (self.d0 + np.floor(x * (self.d1 - self.d0))).astype(np.int64)

    def time_of(self, day):
        """The events' time that maps to ``day`` (inverse, for messages)."""
        if self.kind == "rank":
            n = self.sorted_times.shape[0]
            i = int(np.clip(np.ceil((day - self.d0) / max(self.d1 - self.d0, 1) * max(n - 1, 1)), 0, n - 1))
            return float(self.sorted_times[i])
        if self.kind == "calendar":
            per = DAYS_PER_UNIT[self.unit]
            origin = 0 if self.unit == "date" else self.origin
            return (day + _EPOCH_1990 - origin) / per
        if self.d1 == self.d0:
            return self.tmin
        return self.tmin + (day - self.d0) / (self.d1 - self.d0) * (self.tmax - self.tmin)

    def describe(self):
        if self.kind == "calendar":
            return f"calendar ({self.unit}" + ("" if self.unit == "date" else f" since day {self.origin} of 1970") + ")"
        return (f"{self.kind}: times {self.tmin:g}..{self.tmax:g}" + (" by rank" if self.kind == "rank" else "")
                + f" onto {self.span[0]}-01-01..{self.span[1]}-12-30")


def map_times(events, time_map="auto", *, span=(1994, 2020), origin="1970-01-01"):
    """The benchmark day of every item of ``events``, and the rule used (see the module docstring).

    Parameters
    ----------
    events : TemporalEvents
        The items.
    time_map : {'auto', 'calendar', 'linear', 'rank'}, default 'auto'
        One of :data:`TIME_MAPS`.
    span : (int, int), default (1994, 2020)
        Years the 'linear' and 'rank' maps stretch the times over.
    origin : str, default '1970-01-01'
        Date of time 0 for the 'calendar' map of times in seconds or days.

    Returns
    -------
    days : ndarray of int64
        Days since 1990-01-01, one per item.
    rule : str
        'calendar', 'linear' or 'rank'.

    Examples
    --------
    >>> from graphmine.io.events import events_from_items
    >>> ev = events_from_items([[1, 2], [2, 3], [1, 3]], [0, 50, 100])
    >>> days, rule = map_times(ev, span=(2000, 2001))
    >>> days.tolist(), rule
    ([3652, 4016, 4381], 'linear')
    """
    tm = _TimeMap(events, time_map, span, origin)
    return tm.days(events.times), tm.kind


def _year_of_day(day):
    """The year Y whose end (year_end_day(Y)) is nearest to ``day``."""
    y = ORIGIN.year + int(day) // 365
    best = min(range(max(MIN_YEAR - 1, y - 2), min(MAX_YEAR, y + 2) + 1), key=lambda Y: abs(year_end_day(Y) - day))
    return best


def build_benchmark(events, *, year_start=None, cut=None, years_delta=3, vertex_degree_cutoff=0, min_edges=1,
                    n_pairs=100_000, seed=0, time_map="auto", span=(1994, 2020), origin="1970-01-01", **read_kw):
    """A Science4Cast data set (benchmark format, or competition format without a future) from events.

    Parameters
    ----------
    events : TemporalEvents or str or PathLike
        Events, or a file / ScHoLP data set read by :func:`graphmine.io.events.read_events` (extra
        keywords ``format``, ``time_unit``, ``ids`` go there).
    year_start : int, optional
        The cut year: pairs are unconnected at the end of ``year_start`` (on the mapped calendar).
        Default: the last complete year of the data minus ``years_delta`` (so the solution exists).
    cut : number or str, optional
        The cut as a time in the events' units (or a date ``YYYY-MM-DD`` for dated events) instead
        of ``year_start``: the year whose end is nearest to it after mapping.
    years_delta, vertex_degree_cutoff, min_edges : int
        As in Science4Cast: label 1 when a pair has at least ``min_edges`` rows by the end of
        ``year_start + years_delta``; pairs of vertices with multigraph degree >= cutoff.
    n_pairs : int or None
        Pairs to sample; fewer (with a warning) when fewer unconnected eligible pairs exist;
        None: all of them.
    seed : int
        Seed of the pair sample.
    time_map : {'auto', 'calendar', 'linear', 'rank'}
        How times become benchmark days (:func:`map_times`).
    span : (int, int)
        Years of the linear and rank maps.
    origin : str
        Day 0 of numeric times on the calendar map.
    **read_kw
        ``format``, ``time_unit`` and ``ids`` of :func:`graphmine.io.events.read_events` when
        ``events`` is a file.

    Returns
    -------
    data : Science4CastData
        Vertices 0..n-1; ``data.solution`` is None when the events end before the end of
        ``year_start + years_delta``.
    node_ids : ndarray
        Original id of every vertex.

    Examples
    --------
    >>> from graphmine.io.events import events_from_items
    >>> ev = events_from_items([[1, 2], [2, 3], [3, 4], [1, 4], [1, 3]], [0, 25, 50, 75, 100])
    >>> data, ids = build_benchmark(ev, years_delta=1, n_pairs=None, span=(2000, 2004))
    >>> data.year_start, data.pairs.shape[0], int(data.solution.sum()), ids.tolist()
    (2003, 2, 1, [1, 2, 3, 4])
    """
    if not isinstance(events, TemporalEvents):
        events = read_events(events, **read_kw)
    elif read_kw:
        raise ParameterError(f"keywords {sorted(read_kw)} apply only when reading events from a file")
    years_delta = check_int("years_delta", years_delta, 1)
    cutoff = check_int("vertex_degree_cutoff", vertex_degree_cutoff, 0)
    min_edges = check_int("min_edges", min_edges, 1)
    if n_pairs is not None:
        n_pairs = check_int("n_pairs", n_pairs, 1)
    if year_start is not None and cut is not None:
        raise ParameterError("give year_start or cut, not both")
    if events.n_pairs == 0:
        raise ParameterError("the events hold no pair of vertices (every item has one vertex): no graph to predict on")
    tm = _TimeMap(events, time_map, span, origin)
    u, v, t = events.pairs()
    day = tm.days(t)
    last = int(tm.days([float(events.times[-1])])[0])
    if cut is not None:
        if isinstance(cut, str):
            if events.time_unit != "date":
                raise ParameterError(f"cut={cut!r} is a date, but the events' times are not dates")
            cut = (np.datetime64(cut, "D") - np.datetime64("1970-01-01", "D")).astype(np.int64)
        year_start = _year_of_day(float(tm.days([float(cut)])[0]))
        _log.info("build: cut %s -> year_start %d (the end of %d is time %g)", cut, year_start, year_start,
                  tm.time_of(year_end_day(year_start)))
    complete = max(y for y in range(MIN_YEAR - 1, MAX_YEAR + 1) if year_end_day(y) - 1 <= max(last, year_end_day(MIN_YEAR - 1)))
    if year_start is None:
        year_start = complete - years_delta
    year_start = check_int("year_start", year_start, MIN_YEAR)
    if year_start + years_delta > MAX_YEAR:
        raise ParameterError(f"year_start + years_delta must be <= {MAX_YEAR}, got {year_start + years_delta}")
    first_day = int(day[0])
    if year_end_day(year_start) <= first_day:
        raise ParameterError(f"year_start={year_start} is before the first event (day {first_day} since 1990-01-01, "
                             f"year {date.fromordinal(ORIGIN.toordinal() + first_day).year}): nothing to predict from")
    has_future = last >= year_end_day(year_start + years_delta) - 1
    end = year_end_day(year_start + years_delta if has_future else year_start)
    keep = day < end
    graph = np.column_stack((u[keep], v[keep], day[keep])).astype(np.int64)
    n = events.n_nodes
    _log.info("build: %d items, %d vertices -> %d rows up to the end of %d (time map %s)", events.n_items, n,
              graph.shape[0], year_start + years_delta if has_future else year_start, tm.describe())
    pairs, sol = _sample(graph, year_start, years_delta, n_pairs, cutoff, min_edges, n, seed)
    solution = sol if has_future else None
    if not has_future:
        _log.info("build: the events end at day %d, before the end of %d: no solution (competition format)",
                  last, year_start + years_delta)
    data = Science4CastData(graph, pairs, int(year_start), int(years_delta), solution, cutoff, min_edges)
    return data, events.node_ids


def _sample(graph, year_start, years_delta, n_pairs, cutoff, min_edges, n, seed):
    """sample_pairs, asking for no more pairs than exist (a warning names the number)."""
    available = unconnected_pair_count(graph, year_start, cutoff, n)
    if available == 0:
        raise ParameterError(f"no unconnected pair of vertices with degree >= {cutoff} exists at the end of "
                             f"{year_start}")
    if n_pairs is None:
        if available > 20_000_000:
            raise ParameterError(f"{available:,} unconnected pairs exist at the end of {year_start}: too many to "
                                 "take all of them; give a number of pairs")
        n_pairs = available
    elif n_pairs > available:
        warn_at_caller(f"only {available} unconnected pairs of vertices with degree >= {cutoff} exist at the end "
                       f"of {year_start}: sampling all of them instead of {n_pairs}")
        n_pairs = available
    return sample_pairs(graph, year_start, years_delta, n_pairs, cutoff, min_edges, n_vertices=n, seed=seed)
