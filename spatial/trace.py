"""Pictures and logs of single runs: where the energy goes and which chain sets the depth.

:func:`recording` captures the machines that algorithms create inside it, with a message log;
:func:`plot_traffic` draws a machine's traffic heat map (energy sent per processor, on the grid)
with the critical chain on top; :func:`write_log` exports the message log as CSV. The command
line: ``python -m spatial trace ALGORITHM --n N [--plot-traffic FILE.png] [--log FILE.csv]``.
"""

import contextlib

import numpy as np

from .exceptions import SpatialInputError

__all__ = ["recording", "plot_traffic", "write_log", "traffic_grid"]

_STACK = []


def _active():
    return bool(_STACK)


def _register(machine):
    for rec in _STACK:
        rec.append(machine)


@contextlib.contextmanager
def recording():
    """Collect every :class:`~spatial.Machine` created inside the block, logging messages.

    Yields
    ------
    list of Machine
        Filled as machines are created (an algorithm's machine is the last one).

    Examples
    --------
    >>> import spatial
    >>> with recording() as machines:
    ...     r = spatial.scan([1, 2, 3, 4])
    >>> m = machines[-1]
    >>> len(m.message_log()["src"]), len(m.critical_chain()) == r.metrics.depth
    (7, True)
    """
    rec = []
    _STACK.append(rec)
    try:
        yield rec
    finally:
        _STACK.remove(rec)


def traffic_grid(machine):
    """Energy sent per processor, laid out on the grid.

    Parameters
    ----------
    machine : Machine
        A machine after a run.

    Returns
    -------
    ndarray of int64 of shape ``machine.shape``
        Entry (y, x): words x distance sent by the processor at that grid position.

    Examples
    --------
    >>> import numpy as np, spatial
    >>> m = spatial.Machine(4)
    >>> m.load("v", 1, procs=[3])
    >>> m.send([3], [0], "v")
    >>> traffic_grid(m).tolist()
    [[0, 0], [0, 2]]
    """
    h, w = machine.shape
    grid = np.zeros((h, w), dtype=np.int64)
    grid[machine.y, machine.x] = machine.energy_sent
    return grid


def plot_traffic(machine, path=None, title=None):
    """Heat map of the energy each processor sent, with the critical chain drawn on top.

    Parameters
    ----------
    machine : Machine
        A machine after a run (with ``log=True`` or from :func:`recording` for the chain).
    path : str or path-like, optional
        Write a PNG there.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The heat map and its colour bar.

    Examples
    --------
    >>> import spatial
    >>> m = spatial.Machine(4, log=True)
    >>> m.load("v", 1, procs=[3])
    >>> m.send([3], [0], "v")
    >>> type(plot_traffic(m)).__name__
    'Figure'
    """
    import matplotlib.pyplot as plt
    grid = traffic_grid(machine)
    h, w = grid.shape
    size = (min(10, 2 + 6 * w / max(h, w)), min(8, 1.5 + 6 * h / max(h, w)))
    fig, ax = plt.subplots(figsize=size)
    im = ax.imshow(grid, origin="upper", cmap="viridis", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="energy sent (words x hops)")
    met = machine.metrics
    if machine.log:
        log = machine.message_log()
        chain = machine.critical_chain()
        if chain.size:
            stops = np.r_[log["src"][chain[0]], log["dst"][chain]]
            xs, ys = machine.x[stops], machine.y[stops]
            ax.plot(xs, ys, "-", color="red", lw=1.2, alpha=0.8,
                    label=f"critical chain ({chain.size} messages)")
            ax.plot(xs[:1], ys[:1], "o", color="white", ms=4)
            ax.plot(xs[-1:], ys[-1:], "s", color="red", ms=4)
            ax.legend(loc="upper right", fontsize=7)
    ax.set_title(title or f"{machine.n_processors} processors ({machine.layout}): energy "
                 f"{met.energy}, depth {met.depth}", fontsize=9)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def write_log(machine, path):
    """Write the machine's message log as CSV.

    The header is ``round,src,dst,words,length,depth,distance,parent,src_x,src_y,dst_x,dst_y``.

    Parameters
    ----------
    machine : Machine
        A machine with a message log (``log=True``, or made inside :func:`recording`).
    path : str or path-like
        The CSV file.

    Returns
    -------
    int
        The number of messages written.

    Raises
    ------
    SpatialInputError
        The machine keeps no log.

    Examples
    --------
    >>> import os, tempfile, spatial
    >>> m = spatial.Machine(4, log=True)
    >>> m.load("v", 1, procs=[3])
    >>> m.send([3], [0], "v")
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> write_log(m, path)
    1
    >>> print(open(path).read(), end="")
    round,src,dst,words,length,depth,distance,parent,src_x,src_y,dst_x,dst_y
    1,3,0,1,2,1,2,-1,1,1,0,0
    """
    if not machine.log:
        raise SpatialInputError("this machine keeps no message log: create it with log=True "
                                "or inside spatial.trace.recording()")
    log = machine.message_log()
    cols = dict(log)
    cols["src_x"], cols["src_y"] = machine.x[log["src"]], machine.y[log["src"]]
    cols["dst_x"], cols["dst_y"] = machine.x[log["dst"]], machine.y[log["dst"]]
    table = np.column_stack([cols[k] for k in cols]) if log["src"].size else \
        np.zeros((0, len(cols)), np.int64)
    np.savetxt(path, table, fmt="%d", delimiter=",", header=",".join(cols), comments="")
    return int(log["src"].size)
