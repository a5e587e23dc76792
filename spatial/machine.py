"""The Spatial Computer simulator: a grid of processors that account every message.

Model (Gianinazzi et al., arXiv 2205.04934): processors sit on a 2D grid and hold O(1) words;
a message carries O(1) words and costs its Manhattan length.

.. math::

    E = \\sum_m |x_s - x_d| + |y_s - y_d|, \\qquad
    \\operatorname{depth}(m) = 1 + \\max_{m' \\to s \\text{ before } m} \\operatorname{depth}(m'),

and the distance of a message is its length plus the largest distance among the messages its
sender received before sending it. The machine's depth and distance are the maxima over all
messages; it also counts messages and the largest number one processor sends or receives
(contention, which the base model does not charge).

Algorithms are written as rounds of vectorised sends. ``send(src, dst, payload)`` accounts a
round: every message of the round depends on everything its sender received in earlier rounds
(tracked per processor, so dependency tracking is automatic and conservative, as the model
says), and nothing in the round depends on another message of the same round. Local
computation is free and happens in the algorithm's own numpy code between rounds.
"""

from dataclasses import asdict, dataclass

import numpy as np

from . import _kernels
from .exceptions import SpatialInputError, SpatialTypeError
from .layout import _check_layout, grid_shape, layout_coordinates

__all__ = ["Machine", "Metrics"]


@dataclass(frozen=True)
class Metrics:
    """Totals accounted by a :class:`Machine`.

    Attributes
    ----------
    energy : int
        Sum of the Manhattan lengths of all messages.
    depth : int
        Longest chain of dependent messages, in messages (hops).
    distance : int
        Longest chain of dependent messages, weighted by length.
    messages : int
        Number of messages (local self-sends excluded).
    max_sent, max_recv : int
        Largest number of messages one processor sent / received in total.
    contention : int
        Largest number of messages one processor sent or received within one round.
    rounds : int
        Number of rounds (calls of :meth:`Machine.send`; a chain counts its messages).
    """

    energy: int
    depth: int
    distance: int
    messages: int
    max_sent: int
    max_recv: int
    contention: int
    rounds: int

    def as_dict(self):
        """The metrics as a plain ``dict`` of ints (JSON-ready)."""
        return {k: int(v) for k, v in asdict(self).items()}


class Machine:
    """A grid of processors that accounts energy, depth and distance of messages.

    Parameters
    ----------
    n_processors : int
        Number of processors: a power of two for ``"z-order"`` / ``"row-major"`` (the grid is
        square, or twice as wide as high for odd powers), any positive int for ``"line"``.
    layout : {"z-order", "row-major", "line"}
        How processor ids map to grid coordinates (see :mod:`spatial.layout`).

    Attributes
    ----------
    n_processors : int
    layout : str
    shape : tuple of int
        ``(height, width)`` of the grid.
    x, y : numpy.ndarray of int64
        Column and row of every processor (read-only views).

    Examples
    --------
    A reduce of four values on a 2x2 grid: two messages of length 1, then one more.

    >>> import numpy as np
    >>> m = Machine(4)
    >>> v = np.array([1, 2, 3, 4])
    >>> v[[0, 2]] += m.send([1, 3], [0, 2], v[[1, 3]])
    >>> v[0] += m.send([2], [0], v[[2]])[0]
    >>> int(v[0]), m.metrics.energy, m.metrics.depth, m.metrics.distance
    (10, 3, 2, 2)
    """

    def __init__(self, n_processors, layout="z-order"):
        layout = _check_layout(layout)
        self.shape = grid_shape(n_processors, layout)
        self.n_processors = int(n_processors)
        self.layout = layout
        x, y = layout_coordinates(self.n_processors, layout)
        x.setflags(write=False)
        y.setflags(write=False)
        self.x, self.y = x, y
        self.reset()

    def reset(self):
        """Forget all accounted messages (the grid and layout stay)."""
        p = self.n_processors
        self._depth = np.zeros(p, np.int64)
        self._dist = np.zeros(p, np.int64)
        self._sent = np.zeros(p, np.int64)
        self._recv = np.zeros(p, np.int64)
        self._scratch = np.zeros(p, np.int64)
        self._contention = 0
        self._energy = 0
        self._messages = 0
        self._rounds = 0

    def __repr__(self):
        h, w = self.shape
        return f"Machine({self.n_processors}, layout={self.layout!r})  # {h} x {w} grid"

    # -- accounting ------------------------------------------------------------------------
    def _ids(self, a, name):
        if isinstance(a, np.ndarray) and a.dtype == np.int64 and a.ndim == 1:
            arr = a
        else:
            arr = np.asarray(a)
            if arr.ndim == 0:
                arr = arr.reshape(1)
            if arr.ndim != 1:
                raise SpatialInputError(f"{name} must be one-dimensional, got shape {arr.shape}")
            if arr.size and not np.issubdtype(arr.dtype, np.integer):
                raise SpatialTypeError(f"{name} must hold integer processor ids, got {arr.dtype}")
            arr = arr.astype(np.int64, copy=False)
        if arr.size and (arr.min() < 0 or arr.max() >= self.n_processors):
            bad = arr[(arr < 0) | (arr >= self.n_processors)][0]
            raise SpatialInputError(
                f"{name} holds processor id {bad}, outside 0..{self.n_processors - 1}")
        return np.ascontiguousarray(arr)

    def send(self, src, dst, payload=None):
        """Account one round of messages ``src[t] -> dst[t]`` and deliver their payloads.

        Parameters
        ----------
        src, dst : array_like of int
            Sender and receiver processor ids, one entry per message (equal lengths). A
            processor may send and receive several messages in a round. ``src[t] == dst[t]`` is
            local work: delivered, but neither counted nor charged.
        payload : array_like, optional
            What the messages carry, first axis aligned with ``src`` (O(1) words per message:
            keep trailing axes small).

        Returns
        -------
        numpy.ndarray or None
            ``payload`` as delivered (message ``t``'s words arrive at ``dst[t]``), so an
            algorithm reads ``inbox[dst] = m.send(src, dst, values[src])``.

        Examples
        --------
        >>> m = Machine(16)                      # 4 x 4, Z-order
        >>> m.send([0], [15], [7.5]).tolist()    # (0, 0) -> (3, 3)
        [7.5]
        >>> m.metrics.energy
        6
        """
        s = self._ids(src, "src")
        d = self._ids(dst, "dst")
        if s.shape != d.shape:
            raise SpatialInputError(
                f"src and dst must have equal lengths, got {s.size} and {d.size}")
        if payload is not None:
            payload = np.asarray(payload)
            if payload.ndim == 0 or payload.shape[0] != s.size:
                raise SpatialInputError(
                    f"payload must have one entry per message ({s.size}), "
                    f"got shape {payload.shape}")
        self._account(s, d)
        return payload

    def _account(self, s, d):
        # Trusted fast path for the package's algorithms: int64 contiguous ids in range.
        energy, count, most = _kernels.account_round(
            s, d, self.x, self.y, self._depth, self._dist, self._sent, self._recv,
            self._scratch)
        self._contention = max(self._contention, int(most))
        self._energy += int(energy)
        self._messages += int(count)
        self._rounds += 1

    def chain(self, path):
        """Account messages along ``path[0] -> path[1] -> ...``, each depending on the last.

        The same totals as ``len(path) - 1`` rounds of one message each, without the Python
        loop (a chain scan on ``2**20`` processors accounts in milliseconds).

        Parameters
        ----------
        path : array_like of int
            Processor ids visited in order.

        Examples
        --------
        >>> m = Machine(4, "line")
        >>> m.chain([0, 1, 2, 3])
        >>> m.metrics.energy, m.metrics.depth
        (3, 3)
        """
        p = self._ids(path, "path")
        energy, count = _kernels.account_chain(
            p, self.x, self.y, self._depth, self._dist, self._sent, self._recv)
        if count:
            self._contention = max(self._contention, 1)
        self._energy += int(energy)
        self._messages += int(count)
        self._rounds += max(p.size - 1, 0)

    def distances(self, src, dst):
        """Manhattan lengths of messages ``src -> dst`` (no accounting).

        Examples
        --------
        >>> Machine(16, "row-major").distances([0, 0], [3, 15]).tolist()
        [3, 6]
        """
        s = self._ids(src, "src")
        d = self._ids(dst, "dst")
        if s.shape != d.shape:
            raise SpatialInputError(
                f"src and dst must have equal lengths, got {s.size} and {d.size}")
        return np.abs(self.x[s] - self.x[d]) + np.abs(self.y[s] - self.y[d])

    @property
    def depths(self):
        """Per processor: the largest depth among the messages it received (a copy)."""
        return self._depth.copy()

    @property
    def metrics(self):
        """The totals so far, as a :class:`Metrics`."""
        return Metrics(
            energy=int(self._energy),
            depth=int(self._depth.max(initial=0)),
            distance=int(self._dist.max(initial=0)),
            messages=int(self._messages),
            max_sent=int(self._sent.max(initial=0)),
            max_recv=int(self._recv.max(initial=0)),
            contention=int(self._contention),
            rounds=int(self._rounds),
        )
