import json

import pytest
from typer.testing import CliRunner

from octal.front.cli import app

runner = CliRunner()


def test_officers_rare_positions_are_the_published_ones():
    """Officers' 1,584 rare positions (mask 0x1ee) all lie below 20,628 (Flammenkamp), so 2¹⁶ heaps show them all;
    the published largest value to 2²¹ (319, first at 1,274,955) is docs/long-runs.md's example, which the tests run
    too."""
    r = runner.invoke(app, ["stats", "officers", "--n", str(2**16), "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert (doc["rare_count"], doc["mask"], doc["last_rare"]) == (1584, 0x1EE, 20_627)
    assert doc["max"] == max(map(int, doc["histogram"])) and doc["max_first_at"] < 2**16


def test_stats_text():
    r = runner.invoke(app, ["stats", "0.127", "--n", "20000", "--quiet"])
    assert r.exit_code == 0
    assert "position-parity bit" in r.output and "rare positions" in r.output


@pytest.mark.parametrize("kernel", ["naive", "sparse", "auto"])
def test_run_kernel_option(kernel):
    r = runner.invoke(app, ["run", "0.6", "--n", "3000", "--kernel", kernel, "--json", "--values"])
    assert r.exit_code == 0
    assert json.loads(r.output)["values"][:8] == [0, 0, 1, 2, 0, 1, 2, 3]


def test_sparse_kernel_refused_for_hexadecimal():
    r = runner.invoke(app, ["run", "0.8", "--kernel", "sparse"])
    assert r.exit_code == 2 and "three or more heaps" in r.output


@pytest.mark.slow
def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "officers.png"
    r = runner.invoke(app, ["plot", "officers", "--n", "30000", "-o", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(app, ["plot", "officers", "--n", "300", "-o", str(tmp_path / "x.gif")])
    assert r.exit_code == 2 and "suffix" in r.output
    for kind in ("rare", "frequencies"):
        svg = tmp_path / f"{kind}.svg"
        r = runner.invoke(app, ["plot", "officers", "--n", "5000", "--kind", kind, "-o", str(svg), "--quiet"])
        assert r.exit_code == 0 and svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    r = runner.invoke(app, ["plot", "officers", "--kind", "pie", "-o", str(tmp_path / "x.png")])
    assert r.exit_code == 2 and "unknown plot kind" in r.output


@pytest.mark.slow
def test_the_frequency_plot_draws_each_value_in_its_own_colour(tmp_path):
    pytest.importorskip("matplotlib")
    import re

    from octal.front.plot import LINE_COLOURS, MAX_LINES

    svg = tmp_path / "f.svg"
    r = runner.invoke(app, ["plot", "officers", "--n", "100000", "--kind", "frequencies", "-o", str(svg), "--quiet"])
    assert r.exit_code == 0, r.output
    text = svg.read_text()
    assert text.count("G = ") == MAX_LINES  # Officers has more than 12 values by 10⁵: 12 lines in the legend
    strokes = {c.lower() for c in re.findall(r"stroke: (#[0-9a-fA-F]{6})", text)}
    assert set(LINE_COLOURS) <= strokes and len(set(LINE_COLOURS)) == MAX_LINES  # 12 lines, 12 colours


def test_frequency_table_counts_heaps_from_one():
    from octal import nim_sequence
    from octal.front.plot import frequency_table

    values = nim_sequence("0.6", 1000).values
    powers, counts = frequency_table(values)
    assert list(powers) == [2**k for k in range(10)]
    for k, p in enumerate(powers):
        for v in range(counts.shape[1]):
            assert counts[k, v] == sum(1 for h in range(1, p + 1) if values[h] == v)
