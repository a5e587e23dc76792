"""Report: schema, ratio-checked bounds across 2^8..2^16, the command line."""

import json

import numpy as np
import pytest

import spatial.report as report_module
from spatial import SpatialInputError
from spatial.__main__ import main
from spatial.report import ALGORITHMS, GROWTH_TOLERANCE, parse_sizes, ratio_growth, run_report

# Every other power of two keeps the sweep cheap and still spans 2^8..2^16.
SIZES = [2 ** k for k in range(8, 17, 2)]


@pytest.fixture(scope="module")
def report():
    return run_report(["broadcast", "reduce", "scan", "scan_chain", "select", "sort",
                       "sort_rowmajor", "spmv"], SIZES, seed=0)


def test_bounds_hold_by_ratios(report):
    fits = {f["algorithm"]: f for f in report.fits}
    assert all(f["within_bounds"] for f in report.fits), [f for f in report.fits
                                                          if not f["within_bounds"]]
    for name in ("broadcast", "reduce", "scan", "select"):
        assert fits[name]["energy_bounded"] and fits[name]["best_energy_model"] == "n", name
    for name in ("sort", "spmv"):
        assert fits[name]["best_energy_model"] == "n^1.5", name
    assert fits["scan_chain"]["best_depth_model"] == "n"
    assert fits["scan"]["best_depth_model"] == "log n"
    assert fits["sort"]["best_depth_model"] == "log^2 n"
    assert all(f["memory_constant"] for f in report.fits)


def test_ratio_check_catches_a_log_factor(report):
    # The same measured energies, checked against a bound one log factor too small, fail:
    # a line broadcast (n/2) log2 n is not O(n), a bitonic depth L(L+1)/2 is not O(log n).
    rows = [r for r in report.rows if r["algorithm"] == "sort"]
    n = np.array([r["n"] for r in rows], dtype=float)
    g = ratio_growth(n, [r["depth"] for r in rows], lambda v: np.log2(v))
    assert g > 1 + GROWTH_TOLERANCE
    assert ratio_growth(n, [r["depth"] for r in rows], lambda v: np.log2(v) ** 2) <= 1.0
    line = run_report(["broadcast_line"], SIZES)
    e = [r["energy"] for r in line.rows]
    assert ratio_growth(n, e, lambda v: v) > 1 + GROWTH_TOLERANCE           # flagged as O(n)
    assert abs(ratio_growth(n, e, lambda v: v * np.log2(v)) - 1) < 0.01     # fine as n log n
    # The log-log exponent over the same sizes would have passed it as linear.
    assert abs(line.fits[0]["energy_exponent"] - 1.0) < 0.15


def test_report_flags_a_deliberately_n_log_n_variant(monkeypatch):
    fake = report_module._Algorithm(
        "broadcast_line_claimed_linear", "Theta(n)", report_module._n, "O(log n)",
        report_module._log, report_module._run_broadcast("line"))
    monkeypatch.setitem(ALGORITHMS, fake.name, fake)
    rep = run_report([fake.name, "broadcast"], SIZES)
    fits = {f["algorithm"]: f for f in rep.fits}
    assert not fits[fake.name]["within_bounds"] and not fits[fake.name]["energy_bounded"]
    assert fits[fake.name]["best_energy_model"] == "n log n"
    assert fits["broadcast"]["within_bounds"]
    assert "GROWS" in rep.table()


def test_rows_are_consistent(report):
    for r in report.rows:
        assert r["correct"] and r["above_lower_bound"]
        assert r["energy"] >= r["lower_bound"] and r["energy"] >= r["words"] >= r["messages"]
        if r["algorithm"] == "scan":
            # 4.5 n - O(sqrt n) against the closed form of Blelloch's two sweeps.
            L = int(np.log2(r["n"]))
            assert r["energy"] == sum((3 * (r["n"] >> (d + 1)) - 1) * (1 << (d // 2))
                                      for d in range(L))
            assert r["depth"] == 2 * L - 1 and r["max_words"] == 3


def test_json_schema_from_cli(capsys):
    assert main(["report", "--algorithms", "scan,sort", "--sizes", "2^8..2^12", "--json",
                 "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"rows", "fits"}
    need = {"algorithm", "n", "energy", "depth", "distance", "messages", "lower_bound",
            "correct", "words", "max_words", "max_message_words"}
    assert all(need <= set(r) for r in out["rows"]) and len(out["rows"]) == 10
    assert [f["algorithm"] for f in out["fits"]] == ["scan", "sort"]
    assert all({"algorithm", "energy_exponent", "depth_exponent", "energy_ratio_growth",
                "depth_ratio_growth", "within_bounds", "max_words"} <= set(f)
               for f in out["fits"])
    assert all(r["max_words"] <= 16 and r["max_message_words"] <= 4 for r in out["rows"])


def test_table_and_plot(tmp_path, capsys):
    png = tmp_path / "report.png"
    # Exit status 0 or 1 (1: out of bounds, expected at sizes this small); both print.
    assert main(["report", "--algorithms", "broadcast_line,spmv_direct", "--sizes", "16,64",
                 "--plot", str(png)]) in (0, 1)
    captured = capsys.readouterr()
    assert "broadcast_line" in captured.out and "E/LB" in captured.out
    assert "[spatial]" in captured.err                       # progress on stderr
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_parse_sizes_and_errors(capsys):
    assert parse_sizes("2^8..2^10,5") == [5, 256, 512, 1024]
    for bad in ("2^8..100", "abc", "0", ""):
        with pytest.raises(SpatialInputError):
            parse_sizes(bad)
    with pytest.raises(SpatialInputError, match="unknown algorithm"):
        run_report(["bogus"], [16])
    assert main(["report", "--sizes", "x", "--quiet"]) == 2
    assert "error:" in capsys.readouterr().err
    assert set(ALGORITHMS) >= {"broadcast", "reduce", "scan", "select", "sort", "spmv"}


# -- single-run pictures and logs -------------------------------------------------------------
@pytest.mark.parametrize("run", [
    lambda: __import__("spatial").scan(np.arange(64)),
    lambda: __import__("spatial").select(np.random.default_rng(1).normal(size=300), 150, seed=2),
    lambda: __import__("spatial").matmul(np.ones((5, 5)), np.ones((5, 5))),
    lambda: __import__("spatial").scan(np.arange(20), method="chain"),
])
def test_message_log_and_critical_chain_agree_with_metrics(run):
    from spatial.trace import recording, traffic_grid
    with recording() as machines:
        res = run()
    m = machines[-1]
    log = m.message_log()
    met = res.metrics
    assert int((log["words"] * log["length"]).sum()) == met.energy == m.energy_sent.sum()
    assert int(log["words"].sum()) == met.words and log["src"].size == met.messages
    assert int(log["depth"].max()) == met.depth and int(log["distance"].max()) == met.distance
    chain = m.critical_chain()
    assert chain.size == met.depth
    # A chain: each message leaves where the previous one arrived, one hop deeper, later.
    assert np.array_equal(log["src"][chain[1:]], log["dst"][chain[:-1]])
    assert np.array_equal(log["depth"][chain], np.arange(1, met.depth + 1))
    assert np.all(np.diff(log["round"][chain]) > 0)
    assert traffic_grid(m).sum() == met.energy


def test_trace_command(tmp_path, capsys):
    png, csv = tmp_path / "t.png", tmp_path / "t.csv"
    assert main(["trace", "scan", "--n", "256", "--plot-traffic", str(png), "--log",
                 str(csv)]) == 0
    out = capsys.readouterr().out
    assert "energy=1050" in out and "critical_chain=15 messages" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    table = np.loadtxt(csv, delimiter=",", skiprows=1, dtype=np.int64)
    messages = int(out.split("messages=")[1].split()[0])
    assert table.shape == (messages, 12) and int((table[:, 3] * table[:, 4]).sum()) == 1050
    assert main(["trace", "bogus"]) == 2
