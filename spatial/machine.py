"""The Spatial Computer: a grid of processors that own their words and pay for every message.

Model (Gianinazzi et al., arXiv 2205.04934): processors sit on a 2D grid and hold O(1) words;
a message carries O(1) words and costs its Manhattan length per word.

.. math::

    E = \\sum_m w_m \\, (|x_s - x_d| + |y_s - y_d|), \\qquad
    \\operatorname{depth}(m) = 1 + \\max_{m' \\to s \\text{ before } m} \\operatorname{depth}(m'),

with ``w_m`` the words of message ``m``; the distance of a message is its length plus the
largest distance among the messages its sender received before sending it. The machine's depth
and distance are the maxima over all messages; it also counts messages, words, the largest
number of messages one processor sends or receives and the peak number of words one processor
holds.

The machine holds the data. Every processor's words live in *registers*: a register is one
word per processor (a numpy array indexed by processor id, with a mask of the processors that
hold it), so a machine of ``2**20`` processors is a handful of arrays, never a Python object per
processor. An algorithm

* places its input with :meth:`Machine.load` and reads its output with :meth:`Machine.read`
  (free: the input starts where the contract says, the output is looked at where it ends);
* computes with :meth:`Machine.local`: a function applied element-wise to registers of the same
  processors, whose results stay on those processors;
* communicates with :meth:`Machine.send`: one round in which processor ``src[t]`` sends the
  words it holds in the named registers to ``dst[t]``, which stores them.

The rules are enforced: a processor can only send or read words it holds, a message carries at
most ``message_words`` words, a processor holds at most ``words`` words, and a processor
receives at most one message per round (bounded fan-in: a processor that must hear from several
others hears from them in successive rounds, which costs no extra depth when nothing waits on
it). Breaking a rule raises :class:`~spatial.SpatialModelError` naming the processor and the
round, before anything changes.

Dependencies are tracked per processor: every message of a round depends on everything its
sender received in earlier rounds (the model's conservative rule), and nothing in the round
depends on another message of the same round.
"""

from dataclasses import asdict, dataclass

import numpy as np

from . import _kernels
from .exceptions import SpatialInputError, SpatialModelError, SpatialTypeError
from .layout import _check_layout, grid_shape, layout_coordinates

__all__ = ["Machine", "Metrics", "DEFAULT_WORDS", "DEFAULT_MESSAGE_WORDS"]

DEFAULT_WORDS = 16
"""Default local memory of a processor, in words (a constant: no algorithm needs more at any
``n``)."""

DEFAULT_MESSAGE_WORDS = 4
"""Default largest message, in words."""


@dataclass(frozen=True)
class Metrics:
    """Totals accounted by a :class:`Machine`.

    Attributes
    ----------
    energy : int
        Sum over messages of words x Manhattan length.
    words : int
        Words moved (sum of the words of all messages).
    depth : int
        Longest chain of dependent messages, in messages (hops).
    distance : int
        Longest chain of dependent messages, weighted by length.
    messages : int
        Number of messages (local self-sends excluded).
    max_sent, max_recv : int
        Largest number of messages one processor sent / received in total.
    contention : int
        Largest number of messages one processor sent or received within one round (receives
        are at most one per round).
    rounds : int
        Number of rounds (calls of :meth:`Machine.send` with a message; a chain counts its
        messages).
    max_words : int
        Peak number of words one processor held at any time.
    max_message_words : int
        Largest message sent, in words.

    Examples
    --------
    >>> m = Machine(4)
    >>> m.load("v", 1, procs=[3])
    >>> m.send([3], [0], "v")
    >>> m.metrics.energy, m.metrics.messages, m.metrics.depth
    (2, 1, 1)
    """

    energy: int
    words: int
    depth: int
    distance: int
    messages: int
    max_sent: int
    max_recv: int
    contention: int
    rounds: int
    max_words: int
    max_message_words: int

    def as_dict(self):
        """The metrics as a plain ``dict`` of ints (JSON-ready)."""
        return {k: int(v) for k, v in asdict(self).items()}


def _names(names, what):
    if isinstance(names, str):
        return (names,)
    try:
        out = tuple(names)
    except TypeError:
        raise SpatialTypeError(f"{what} must be a register name or a sequence of names, "
                               f"got {type(names).__name__}") from None
    if not out or not all(isinstance(n, str) for n in out):
        raise SpatialTypeError(f"{what} must be one or more register names (str), got {names!r}")
    if len(set(out)) != len(out):
        raise SpatialInputError(f"{what} names a register twice: {out}")
    return out


class Machine:
    """A grid of processors that hold words in registers and pay for every message.

    Parameters
    ----------
    n_processors : int
        Number of processors: a power of two for ``"z-order"`` / ``"row-major"`` (the grid is
        square, or twice as wide as high for odd powers), any positive int for ``"line"``.
    layout : {"z-order", "row-major", "line"}
        How processor ids map to grid coordinates (see :mod:`spatial.layout`).
    words : int
        Local memory of every processor, in words (default :data:`DEFAULT_WORDS`).
    message_words : int
        Largest message, in words (default :data:`DEFAULT_MESSAGE_WORDS`).
    log : bool
        Keep a log of every message (:meth:`message_log`, :meth:`critical_chain`); machines
        created inside :func:`spatial.trace.recording` log regardless.

    Attributes
    ----------
    n_processors, words, message_words : int
    layout : str
    shape : tuple of int
        ``(height, width)`` of the grid.
    x, y : numpy.ndarray of int64
        Column and row of every processor (read-only views).

    Examples
    --------
    A reduce of four values on a 2x2 grid (Z-order: 0=(0,0), 1=(1,0), 2=(0,1), 3=(1,1)): two
    messages of length 1, then one more.

    >>> import numpy as np
    >>> m = Machine(4)
    >>> m.load("v", [1, 2, 3, 4])
    >>> m.send([1, 3], [0, 2], "v", into="got")
    >>> m.local(np.add, ["v", "got"], "v", procs=[0, 2])
    >>> m.send([2], [0], "v", into="got2")
    >>> m.local(np.add, ["v", "got2"], "v", procs=[0])
    >>> int(m.read("v", [0])[0]), m.metrics.energy, m.metrics.depth, m.metrics.max_words
    (10, 3, 2, 3)
    >>> try:
    ...     m.send([1], [0], "nothing")
    ... except SpatialModelError as exc:
    ...     print(exc)
    round 3: processor 1 sends word 'nothing' that it does not hold
    """

    def __init__(self, n_processors, layout="z-order", *, words=DEFAULT_WORDS,
                 message_words=DEFAULT_MESSAGE_WORDS, log=False):
        layout = _check_layout(layout)
        self.shape = grid_shape(n_processors, layout)
        self.n_processors = int(n_processors)
        self.layout = layout
        for name, v in (("words", words), ("message_words", message_words)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise SpatialTypeError(f"{name} must be an int, got {type(v).__name__}")
            if v < 1:
                raise SpatialInputError(f"{name} must be >= 1, got {v}")
        self.words = int(words)
        self.message_words = int(message_words)
        x, y = layout_coordinates(self.n_processors, layout)
        x.setflags(write=False)
        y.setflags(write=False)
        self.x, self.y = x, y
        self._all = np.arange(self.n_processors, dtype=np.int64)
        self._all.setflags(write=False)
        from . import trace                   # machines made while recording join the record
        self.log = bool(log) or trace._active()
        self.reset()
        trace._register(self)

    def reset(self):
        """Forget all messages and all words (the grid, layout and limits stay)."""
        p = self.n_processors
        self._depth = np.zeros(p, np.int64)
        self._dist = np.zeros(p, np.int64)
        self._sent = np.zeros(p, np.int64)
        self._recv = np.zeros(p, np.int64)
        self._scratch = np.zeros(p, np.int64)
        self._count = np.zeros(p, np.int64)      # words each processor holds now
        self._regs = {}
        self._held = {}
        self._nheld = {}
        self._peak = 0
        self._contention = 0
        self._energy = 0
        self._words = 0
        self._messages = 0
        self._rounds = 0
        self._max_msg = 0
        self._esent = np.zeros(p, np.int64)
        self._log = []                        # one tuple of arrays per round, when logging
        self._last = np.full(p, -1, np.int64)  # id of the message that set each depth
        self._logged = 0

    def __repr__(self):
        h, w = self.shape
        return (f"Machine({self.n_processors}, layout={self.layout!r}, words={self.words}, "
                f"message_words={self.message_words})  # {h} x {w} grid")

    # -- validation --------------------------------------------------------------------------
    def _ids(self, a, name):
        if a is None:
            return self._all
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

    def _distinct(self, ids, name, what):
        if ids is self._all or ids.size < 2:
            return
        t = _kernels.first_duplicate(ids, self._scratch)
        if t >= 0:
            r = self._rounds + (1 if what == "receives" else 0)
            raise SpatialModelError(
                f"round {r}: processor {ids[t]} {what} twice in one step ({name} repeats it)",
                processor=ids[t], round=r)

    def _get(self, name, procs, what):
        held = self._held.get(name)
        ok = held[procs] if held is not None else np.zeros(procs.size, dtype=bool)
        if not ok.all():
            p = procs[~ok][0]
            r = self._rounds + (1 if what == "sends" else 0)
            raise SpatialModelError(
                f"round {r}: processor {p} {what} word {name!r} that it does not hold",
                processor=p, round=r)
        if held is None:                      # nobody holds it and nobody asked
            return np.zeros(0)
        return self._regs[name][procs]

    def _reserve(self, procs, names, when):
        """Check that ``procs`` can store the registers ``names``; update the word counts."""
        add = np.zeros(procs.size, np.int64)
        for nm in names:
            held = self._held.get(nm)
            add += 1 if held is None else ~held[procs]
        new = self._count[procs] + add
        if new.size and new.max() > self.words:
            t = int(np.argmax(new))
            p = procs[t]
            raise SpatialModelError(
                f"round {when}: processor {p} would hold {new[t]} words, more than its memory "
                f"(words={self.words})", processor=p, round=when)
        self._count[procs] = new
        if new.size:
            self._peak = max(self._peak, int(new.max()))

    def _store(self, name, procs, values):
        values = np.asarray(values)
        reg = self._regs.get(name)
        held = self._held.get(name)
        if reg is None or not self._nheld[name]:
            # A register nobody holds takes the dtype of what is stored now.
            dtype = values.dtype if values.dtype.kind in "biuf" else np.dtype(np.float64)
            if reg is None or reg.dtype != dtype:
                reg = np.zeros(self.n_processors, dtype=dtype)
                self._regs[name] = reg
            if held is None:
                held = np.zeros(self.n_processors, dtype=bool)
                self._held[name] = held
                self._nheld[name] = 0
        elif not np.can_cast(values.dtype, reg.dtype, "safe"):
            reg = reg.astype(np.result_type(reg.dtype, values.dtype))
            self._regs[name] = reg
        reg[procs] = values
        self._nheld[name] += int(procs.size - np.count_nonzero(held[procs]))
        held[procs] = True

    # -- local work ------------------------------------------------------------------------
    def load(self, name, values, procs=None):
        """Place input words: processor ``procs[t]`` now holds ``values[t]`` in ``name``.

        Free (the input starts where the contract puts it), but counted against memory.

        Parameters
        ----------
        name : str
            Register.
        values : array_like or scalar
            One value per processor of ``procs`` (a scalar goes to all of them).
        procs : array_like of int, optional
            Distinct processor ids (default: all).
        """
        (name,) = _names(name, "name")
        procs = self._ids(procs, "procs")
        self._distinct(procs, "procs", "is written")
        values = np.asarray(values)
        if values.dtype.kind not in "biuf":
            raise SpatialTypeError(f"values must be bool, int or float, got dtype {values.dtype}")
        if values.ndim == 0:
            values = np.full(procs.size, values)
        if values.shape != (procs.size,):
            raise SpatialInputError(
                f"values must hold one entry per processor ({procs.size}), got shape "
                f"{values.shape}")
        self._reserve(procs, (name,), self._rounds)
        self._store(name, procs, values)

    def read(self, name, procs=None):
        """The words of register ``name`` on ``procs`` (a copy; reading the output is free).

        Raises :class:`~spatial.SpatialModelError` if a processor does not hold the word.
        """
        (name,) = _names(name, "name")
        procs = self._ids(procs, "procs")
        return self._get(name, procs, "reads").copy()

    def holds(self, name, procs=None):
        """Whether each processor of ``procs`` holds a word in register ``name`` (bool array).

        A processor knows this about itself, so algorithms may branch on it.
        """
        (name,) = _names(name, "name")
        procs = self._ids(procs, "procs")
        held = self._held.get(name)
        return np.zeros(procs.size, dtype=bool) if held is None else held[procs].copy()

    def free(self, names, procs=None):
        """Forget the words of ``names`` on ``procs`` (those not held are ignored)."""
        names = _names(names, "names")
        procs = self._ids(procs, "procs")
        self._distinct(procs, "procs", "is freed")
        for nm in names:
            held = self._held.get(nm)
            if held is None:
                continue
            h = held[procs]
            self._count[procs] -= h
            self._nheld[nm] -= int(np.count_nonzero(h))
            held[procs] = False

    def local(self, fn, inputs, outputs, procs=None, *, with_ids=False):
        """Local computation: ``outputs = fn(*inputs)`` on every processor of ``procs``.

        ``fn`` receives one array per input register (the words of ``procs``, aligned) and
        returns one array (or a tuple, one per output register) aligned the same way; entry
        ``t`` of every output is stored on processor ``procs[t]``. ``fn`` must work element by
        element (numpy ufuncs and ``np.where`` do), so a processor's results depend only on its
        own words: that is what makes the step local. Free: the model charges communication.

        Parameters
        ----------
        fn : callable
        inputs : str or sequence of str
            Registers read (every processor of ``procs`` must hold them).
        outputs : str or sequence of str
            Registers written (counted against memory where new).
        procs : array_like of int, optional
            Distinct processor ids (default: all).
        with_ids : bool
            Pass the processors' own ids as ``fn``'s first argument (a processor knows its
            address without storing it).
        """
        inputs = () if inputs in ((), []) else _names(inputs, "inputs")
        outputs = _names(outputs, "outputs")
        procs = self._ids(procs, "procs")
        self._distinct(procs, "procs", "is written")
        args = [self._get(nm, procs, "reads") for nm in inputs]
        if with_ids:
            args.insert(0, procs.copy())
        res = fn(*args)
        if len(outputs) == 1 and not isinstance(res, tuple):
            res = (res,)
        if not isinstance(res, tuple) or len(res) != len(outputs):
            raise SpatialInputError(
                f"fn must return {len(outputs)} array(s) for outputs {outputs}")
        vals = []
        for nm, v in zip(outputs, res):
            v = np.asarray(v)
            if v.ndim == 0:
                v = np.full(procs.size, v)
            if v.shape != (procs.size,):
                raise SpatialInputError(
                    f"fn returned shape {v.shape} for {nm!r}; local steps are element-wise, "
                    f"one value per processor ({procs.size})")
            vals.append(v)
        self._reserve(procs, outputs, self._rounds)
        for nm, v in zip(outputs, vals):
            self._store(nm, procs, v)

    # -- communication ---------------------------------------------------------------------
    def send(self, src, dst, names, into=None):
        """One round: processor ``src[t]`` sends its words of ``names`` to ``dst[t]``.

        Parameters
        ----------
        src, dst : array_like of int
            Sender and receiver ids, one entry per message (equal lengths). A processor may
            send several messages in a round but receives at most one. ``src[t] == dst[t]``
            is a local copy: neither counted nor charged.
        names : str or sequence of str
            Registers the message carries (its size in words; at most ``message_words``).
            The sender keeps its words (free them with :meth:`free`).
        into : str or sequence of str, optional
            Registers the receiver stores them in (default: the same names).

        Raises
        ------
        SpatialModelError
            A sender does not hold a word, the message is too large, a receiver gets two
            messages in the round or would exceed its memory. Nothing changes then.

        Examples
        --------
        >>> m = Machine(16)                      # 4 x 4, Z-order
        >>> m.load("w", [7.5, 1.0], procs=[0, 5])
        >>> m.send([0], [15], "w")               # (0, 0) -> (3, 3)
        >>> m.read("w", [15]).tolist(), m.metrics.energy
        ([7.5], 6)
        >>> m.load("u", 2.0, procs=[0])
        >>> m.send([0], [3], ["w", "u"])         # two words: twice the energy of one
        >>> m.metrics.energy, m.metrics.words, m.metrics.messages
        (10, 3, 2)
        """
        names = _names(names, "names")
        into = names if into is None else _names(into, "into")
        if len(into) != len(names):
            raise SpatialInputError(
                f"into must name one register per sent register ({len(names)}), got {into}")
        when = self._rounds + 1
        k = len(names)
        if k > self.message_words:
            raise SpatialModelError(
                f"round {when}: a message of {k} words {names} exceeds the message size "
                f"(message_words={self.message_words})", round=when)
        s = self._ids(src, "src")
        d = self._ids(dst, "dst")
        if s.shape != d.shape:
            raise SpatialInputError(
                f"src and dst must have equal lengths, got {s.size} and {d.size}")
        if s.size == 0:
            return
        self._distinct(d, "dst", "receives")
        vals = [self._get(nm, s, "sends") for nm in names]
        self._reserve(d, into, when)
        for nm, v in zip(into, vals):
            self._store(nm, d, v)
        self._account(s, d, k)

    def _record(self, s, d, k, rnd):
        # Message depths and the message each one waited for (the one that set its sender's
        # depth), before the accounting changes them.
        far = s != d
        s, d = s[far], d[far]
        if not s.size:
            return
        ids = self._logged + np.arange(s.size, dtype=np.int64)
        mdepth = self._depth[s] + 1
        length = np.abs(self.x[s] - self.x[d]) + np.abs(self.y[s] - self.y[d])
        mdist = self._dist[s] + length
        parent = self._last[s]
        deeper = mdepth > self._depth[d]
        self._last[d[deeper]] = ids[deeper]
        self._log.append((np.full(s.size, rnd, np.int64), s.copy(), d.copy(),
                          np.full(s.size, k, np.int64), length, mdepth, mdist, parent))
        self._logged += s.size

    def _account(self, s, d, k):
        if self.log:
            self._record(s, d, k, self._rounds + 1)
        energy, count, most = _kernels.account_round(
            s, d, self.x, self.y, self._depth, self._dist, self._sent, self._recv,
            self._scratch, self._esent, k)
        if count:
            self._contention = max(self._contention, int(most))
            self._max_msg = max(self._max_msg, k)
            self._rounds += 1
        self._energy += k * int(energy)
        self._words += k * int(count)
        self._messages += int(count)

    def chain(self, path, name, into=None, op=None, received=False):
        """A chain of dependent one-word messages ``path[0] -> path[1] -> ...``.

        Processor ``path[0]`` sends its word of ``name``; each later processor stores what it
        receives in ``into`` and forwards it, combined first with its own word of ``name`` when
        ``op`` is given: ``into`` on ``path[t]`` becomes ``op(... op(name[path[0]],
        name[path[1]]) ..., name[path[t]])``. The same words, totals and depths as
        ``len(path) - 1`` rounds of one message each, without a Python loop (a chain over
        ``2**20`` processors takes milliseconds).

        Parameters
        ----------
        path : array_like of int
            Distinct processor ids in the order visited.
        name : str
            The register sent (and combined).
        into : str, optional
            Where the receivers store the running word (default ``name``).
        op : numpy ufunc, optional
            Binary ufunc folded along the chain (forwarded unchanged when omitted).
        received : bool
            Store the word as received (the fold of the processors before), not combined with
            the receiver's own word.

        Examples
        --------
        >>> m = Machine(4, "line")
        >>> m.load("x", [1, 2, 3, 4])
        >>> m.chain([0, 1, 2, 3], "x", into="s", op=np.add)
        >>> m.read("s", [1, 2, 3]).tolist(), m.metrics.energy, m.metrics.depth
        ([3, 6, 10], 3, 3)
        """
        (name,) = _names(name, "name")
        into = name if into is None else _names(into, "into")[0]
        if op is not None and not isinstance(op, np.ufunc):
            raise SpatialTypeError(f"op must be a numpy ufunc, got {type(op).__name__}")
        p = self._ids(path, "path")
        if p.size < 2:
            return
        self._distinct(p, "path", "receives")
        when = self._rounds + 1
        vals = self._get(name, p if op is not None else p[:1], "sends")
        run = op.accumulate(vals) if op is not None else np.full(p.size, vals[0])
        self._reserve(p[1:], (into,), when)
        self._store(into, p[1:], run[:-1] if received else run[1:])
        if self.log:                  # one round per hop, so the log sees every depth
            for t in range(p.size - 1):
                self._account(p[t:t + 1], p[t + 1:t + 2], 1)
            return
        energy, count = _kernels.account_chain(
            p, self.x, self.y, self._depth, self._dist, self._sent, self._recv, self._esent)
        if count:
            self._contention = max(self._contention, 1)
            self._max_msg = max(self._max_msg, 1)
        self._energy += int(energy)
        self._words += int(count)
        self._messages += int(count)
        self._rounds += int(count)

    # -- inspection ------------------------------------------------------------------------
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
    def energy_sent(self):
        """Per processor: the energy of the messages it sent (words x length; a copy)."""
        return self._esent.copy()

    def message_log(self):
        """Every message so far, in order (needs ``log=True``).

        Returns
        -------
        dict of numpy.ndarray
            ``round, src, dst, words, length, depth, distance, parent``: one entry per message;
            ``parent`` is the index of the message whose arrival set the sender's depth (the
            one this message waited for), -1 for none.

        Examples
        --------
        >>> m = Machine(4, log=True)
        >>> m.load("v", [1, 2, 3, 4])
        >>> m.send([1, 3], [0, 2], "v", into="w")
        >>> m.send([2], [0], "v", into="u")
        >>> log = m.message_log()
        >>> log["src"].tolist(), log["depth"].tolist(), log["parent"].tolist()
        ([1, 3, 2], [1, 1, 2], [-1, -1, 1])
        """
        if not self.log:
            raise SpatialInputError("this machine keeps no message log: create it with log=True")
        keys = ("round", "src", "dst", "words", "length", "depth", "distance", "parent")
        if not self._log:
            return {k: np.zeros(0, np.int64) for k in keys}
        return {k: np.concatenate([r[i] for r in self._log]) for i, k in enumerate(keys)}

    def critical_chain(self):
        """Indices (into :meth:`message_log`) of a longest chain of dependent messages, first
        message first: the chain that sets the depth.

        Examples
        --------
        >>> m = Machine(4, log=True)
        >>> m.load("v", [1, 2, 3, 4])
        >>> m.send([1, 3], [0, 2], "v", into="w")
        >>> m.send([2], [0], "v", into="u")
        >>> m.critical_chain().tolist()
        [1, 2]
        """
        log = self.message_log()
        if not log["depth"].size:
            return np.zeros(0, np.int64)
        t = int(np.argmax(log["depth"]))
        chain = []
        while t >= 0:
            chain.append(t)
            t = int(log["parent"][t])
        return np.array(chain[::-1], dtype=np.int64)

    @property
    def memory(self):
        """Per processor: the number of words it holds now (a copy)."""
        return self._count.copy()

    @property
    def registers(self):
        """Names of the registers written so far."""
        return sorted(self._regs)

    @property
    def metrics(self):
        """The totals so far, as a :class:`Metrics`."""
        return Metrics(
            energy=int(self._energy),
            words=int(self._words),
            depth=int(self._depth.max(initial=0)),
            distance=int(self._dist.max(initial=0)),
            messages=int(self._messages),
            max_sent=int(self._sent.max(initial=0)),
            max_recv=int(self._recv.max(initial=0)),
            contention=int(self._contention),
            rounds=int(self._rounds),
            max_words=int(self._peak),
            max_message_words=int(self._max_msg),
        )
