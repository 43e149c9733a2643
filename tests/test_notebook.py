"""The example notebook runs from top to bottom (its cells assert what they show), and results render in notebooks."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import octal
from octal.census import open_census, run_census
from octal.misere import misere_quotient

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "analysis.ipynb"


@pytest.mark.slow
def test_the_example_notebook_runs(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if o.output_type == "execute_result" and "text/html" in o["data"]]
    assert len(html) == 6 and "period 12 from heap 71" in html[0]
    assert (tmp_path / "example-site" / "index.html").exists()


def test_short_reprs_and_html(tmp_path):
    kayles = octal.nim_sequence("kayles", until_proven=True)
    assert repr(kayles).startswith("NimSequence(0.77 (Kayles): 168 values") and "\n" not in repr(kayles)
    assert '<td class="exc"' in kayles._repr_html_() and "proven" in kayles._repr_html_()
    q = misere_quotient("0.77")
    assert repr(q) == "MisereQuotient(0.77: |Q| = 40, |P| = 9, heaps 0..167, Φ period 12 from 71, finite)"
    assert "<details>" in q._repr_html_()  # the 40×40 table only on request
    sol = octal.solve_position("kayles", (3, 4, 5))
    assert repr(sol) == "Solution(0.77 [3 4 5], normal: N, 1 winning move)" and "<ol>" in sol._repr_html_()
    run_census(1, db=tmp_path / "c.sqlite", workers=1)
    census = open_census(tmp_path / "c.sqlite")
    c = census.counts
    assert c["proven"] + c["open"] == 7 and repr(census) == (
        f"Census({tmp_path / 'c.sqlite'}: 7 codes, {c['proven']} proven, {c['open']} open, "
        f"{c['distinct']} distinct games)")
    assert census._repr_html_().count("<tr>") == 1 + 7 + 5
    g = octal.solve_graph(octal.named_graph("petersen"))
    assert "asteroidal number" in g._repr_html_() and repr(g).startswith("GraphResult(node-kayles")
    p = octal.partizan_node_kayles(octal.named_graph("path:5"), "LRLRL")
    assert repr(p) == "PartizanResult(5 vertices: {2|*}, L, 1 winning for Left, 0 for Right)"
    assert "{2|*}" in p._repr_html_() and "left wins by" in p._repr_html_()
