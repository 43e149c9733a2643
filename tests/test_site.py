"""The static site: built from a real census, then driven in headless Chromium as a person would use it.

The browser tests need Debian's chromium and chromium-driver (.ci/run installs them and sets OCTAL_REQUIRE_BROWSER,
so CI fails rather than skips without them). Screenshots of each page go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from octal import nim_sequence
from octal.census import open_census, run_census
from octal.errors import DataFileError
from octal.front.cli import app
from octal.front.site import build_site, census_html, games_from_codes, games_from_db, playable, write_site

SHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"
runner = CliRunner()
# `octal census --digits 2`: every code 0.d1d2 with octal digits d1, d2 except 0.00 (no move at all), 8 · 8 − 1 games
TWO_DIGIT_CODES = {f"0.{a}{b}" for a in range(8) for b in range(8)} - {"0.00"}


def shown(code: str) -> str:
    """A code as the site writes it: a last digit 0 allows no move, so 0.d0 is the game 0.d."""
    return code.removesuffix("0")


def census_statuses(site: Path) -> dict[str, str]:
    """Each code's verdict as the census file the site was built from holds it, read with plain SQL (its codes as
    the census enumerates them: 0.60, not 0.6)."""
    with sqlite3.connect(site.parent / "census.sqlite") as conn:
        statuses = dict(conn.execute("SELECT code, status FROM codes").fetchall())
    conn.close()
    return statuses


def index_statuses(index: str) -> dict[str, str]:
    """data-code → data-status of every row of the index's table."""
    rows = [dict(re.findall(r'(data-code|data-status)="([^"]*)"', tr)) for tr in re.findall(r"<tr\b[^>]*>", index)]
    return {r["data-code"]: r["data-status"] for r in rows if "data-code" in r}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """`octal census --digits 2` and `octal site` into a temporary folder, through the CLI; within 2¹² heaps a code
    rather than the default 2¹⁶ (a few codes more stay open; the default census and its site are docs/site.md's
    example)."""
    tmp = tmp_path_factory.mktemp("site")
    db = tmp / "census.sqlite"
    r = runner.invoke(app, ["census", "--digits", "2", "--max-n", "4096", "--db", str(db), "--workers", "1"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["site", "--db", str(db), "--out", str(tmp / "site")])
    assert r.exit_code == 0 and f"{len(TWO_DIGIT_CODES)} games" in r.output, r.output
    return tmp / "site"


@pytest.mark.slow
def test_pages_say_what_the_census_says(site):
    index = (site / "index.html").read_text()
    census = census_statuses(site)
    assert set(census) == TWO_DIGIT_CODES and set(census.values()) == {"proven", "open"}
    # published: Kayles (0.77, period 12) and Dawson's Kayles (0.07, period 34) are periodic; Officers (0.6) is open
    # (Berlekamp, Conway & Guy, Winning Ways, ch. 4)
    assert (census["0.77"], census["0.07"], census["0.60"]) == ("proven", "proven", "open")
    assert index_statuses(index) == {shown(c): v for c, v in census.items()}  # each game with the census's verdict
    for status in ("proven", "open"):
        assert index.count(f'data-status="{status}"') == list(census.values()).count(status)
    assert "http://" not in index.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in index
    kayles = (site / "games" / "0.77-kayles.html").read_text()
    assert "period 12 from heap 71 (last exception at 70)" in kayles and 'id="board"' in kayles
    assert kayles.count('<td class="exc"') == 14  # Winning Ways' exceptions: 0 3 6 9 11 15 18 21 22 28 34 39 57 70
    assert "even number of the mask" in kayles and "odd parity" not in kayles  # rare: even parity, so 0 is rare
    assert "— (no other code here)" in (site / "games" / "0.76.html").read_text()  # never "same game as" itself
    open_page = next(p for p in (site / "games").iterdir() if p.name.startswith("0.") and "open" in p.read_text()
                     and 'id="verdict" class="open"' in p.read_text())
    assert "proven" not in open_page.read_text().split('id="verdict"')[1][:200]  # never called proven


def test_site_from_named_games_and_errors(tmp_path):
    games = games_from_codes(["kayles", "grundy", "0.6"], 2**12)
    assert [playable(g.sequence) for g in games] == [True, False, False]  # Grundy's game and Officers are open
    build_site(games, tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out" / "games").iterdir()) == [
        "0.6-officers.html", "0.77-kayles.html", "4!.0-grundys-game.html"]
    # named games are no census: no census page, and the index does not link one
    assert not (tmp_path / "out" / "census.html").exists()
    assert "census.html" not in (tmp_path / "out" / "index.html").read_text()
    cousins = {g.code: g.cousin for g in games_from_codes(["0.07", "0.137"], 2**12)}
    assert cousins == {"0.07": "0.137+1", "0.137": None}  # a site of named games groups them as the census does
    with pytest.raises(DataFileError):
        games_from_db(tmp_path / "missing.sqlite")
    (tmp_path / "file").write_text("x")
    r = runner.invoke(app, ["site", "kayles", "--out", str(tmp_path / "file")])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    r = runner.invoke(app, ["site", "0.7Z", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2


def test_a_growing_quotients_order_is_a_lower_bound():
    from octal.front.site import SiteGame, index_html

    seq = nim_sequence("0.77", 200)
    grow = SiteGame(seq, misere={"q_order": 176, "status": "growing", "tame": False})
    done = SiteGame(nim_sequence("0.07", 200), misere={"q_order": 40, "status": "finite", "tame": False})
    html = index_html([grow, done])
    assert '<td data-sort="176">176+</td>' in html and '<td data-sort="40">40</td>' in html


def svg_dots(svg: str) -> dict[str, np.ndarray]:
    """colour → the (x, y) centres, in the chart's pixels, of the dots its <path> draws (moves relative but the
    first, "h0" after each, the path scaled by its transform)."""
    out = {}
    for d, scale, colour in re.findall(r'<path d="([^"]*)"(?: transform="scale\(([\d.]+)\)")? stroke="([^"]+)"', svg):
        assert re.fullmatch(r"(m-?\d+ ?-?\d+h0)+", d), d[:80]  # whole grid steps, nothing but dots
        steps = np.array([[int(a), int(b)] for a, b in re.findall(r"m(-?\d+) ?(-?\d+)h0", d)])
        out[colour] = np.cumsum(steps, axis=0) * float(scale or 1)
    return out


def test_the_plot_draws_each_class_of_dots_as_one_path():
    from octal.front.svg import BOTTOM, COMMON_DOT, HEIGHT, LEFT, RARE_DOT, RIGHT, TOP, WIDTH, scatter_svg

    seq = nim_sequence("0.6", 20_000)  # Officers: 20,000 values, far more than the plot has pixels
    xs = np.arange(seq.n)
    rare = np.flatnonzero(seq.values % 3 == 0)
    svg = scatter_svg(xs, seq.values, "0.6 <Officers> & co", rare, seq.values[rare])
    assert "<circle" not in svg and svg.count("<path") == 2 and "<title>0.6 &lt;Officers&gt; &amp; co</title>" in svg
    dots = svg_dots(svg)
    assert list(dots) == [COMMON_DOT[0], RARE_DOT[0]]  # common dots first, rare ones drawn over them
    pw, ph, top = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, int(seq.values.max())

    def grid_points(x, y, grid):  # each point in the chart's pixels, rounded to its grid: the dots due, as a set
        px = np.column_stack([LEFT + pw * x / xs.max(), TOP + ph * (1 - y / top)])
        return set(map(tuple, np.rint(px * grid) / grid))

    rare_due = grid_points(rare, seq.values[rare], RARE_DOT[2])
    assert set(map(tuple, dots[RARE_DOT[0]])) == rare_due and len(dots[RARE_DOT[0]]) == len(rare_due)
    common_due = grid_points(xs, seq.values, COMMON_DOT[2])
    common = set(map(tuple, dots[COMMON_DOT[0]]))
    assert len(common) == len(dots[COMMON_DOT[0]]) and common <= common_due
    # a common dot is left out only where a rare dot covers it (its centre within a pixel of the rare one's)
    near = defaultdict(list)  # rare dots by the pixel they lie in: one within 1 of a point lies in one of 9 pixels
    for a, b in rare_due:
        near[int(a), int(b)].append((a, b))
    assert all(any(abs(x - a) <= 1 and abs(y - b) <= 1 for i in (-1, 0, 1) for j in (-1, 0, 1)
                   for a, b in near[int(x) + i, int(y) + j]) for x, y in common_due - common)
    assert len(common) < len(xs) and len(rare_due) < len(rare)
    flat = svg_dots(scatter_svg(np.arange(100_000), np.full(100_000, 7), "flat"))[COMMON_DOT[0]]
    assert len(flat) == pw * COMMON_DOT[2] + 1  # 100,000 points on one line: a dot per grid step along it
    assert svg_dots(scatter_svg(np.arange(3), np.array([0, 1, 0]), "t")).keys() == {COMMON_DOT[0]}  # no rare dots


@pytest.mark.slow
def test_a_damaged_census_row_is_refused(tmp_path):
    db = tmp_path / "c.sqlite"
    run_census(digits=1, db=db, workers=1)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE codes SET period = period + 1 WHERE code = '0.7'")
    with pytest.raises(DataFileError, match="0.7"):
        games_from_db(db)
    # every reader of the file refuses it alike: the report and the notebook view as well as the site
    for fmt in ("table", "json"):
        r = runner.invoke(app, ["census", "report", "--db", str(db), "--format", fmt])
        assert r.exit_code == 2 and "'0.7' is damaged" in r.output and len(r.output.strip().splitlines()) == 1
    with pytest.raises(DataFileError, match="0.7"):
        open_census(db)


def browser():
    """Headless Chromium through chromedriver; skip (or, under CI, fail) when it is not installed."""
    driver_path = shutil.which("chromedriver")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not (driver_path and chrome):
        message = "the browser test needs chromium and chromium-driver (apt-get install chromium chromium-driver)"
        if os.environ.get("OCTAL_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000"):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(driver_path), options=opts)


SHOWN_ROWS = ("return Array.from(document.querySelectorAll(arguments[0])).filter(r => r.getClientRects().length > 0)"
              ".map(r => [r.dataset.code, r.dataset.status, Array.from(r.cells, c => c.innerText)])")


def shown_rows(d, selector: str) -> list[list]:
    """[data-code, data-status, its cells' texts] of each row a person sees (laid out, not hidden), in one call to
    the browser: Selenium's is_displayed and .text are a call each, a row."""
    return d.execute_script(SHOWN_ROWS, selector)


@pytest.mark.slow
def test_a_person_filters_the_index_opens_kayles_and_plays_to_the_end(site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    SHOTS.mkdir(parents=True, exist_ok=True)
    d = browser()
    try:
        d.get((site / "index.html").as_uri())
        d.save_screenshot(str(SHOTS / "index.png"))

        def visible():
            return shown_rows(d, "#games tbody tr")

        games = len(TWO_DIGIT_CODES)
        open_codes = {shown(code) for code, status in census_statuses(site).items() if status == "open"}
        assert len(visible()) == games
        Select(d.find_element(By.ID, "status")).select_by_value("open")
        assert {code for code, _, _ in visible()} == open_codes
        assert all(status == "open" for _, status, _ in visible())
        Select(d.find_element(By.ID, "status")).select_by_value("all")
        d.find_element(By.ID, "filter").send_keys("0.77")
        assert [code for code, _, _ in visible()] == ["0.77"]
        assert d.find_element(By.ID, "count").text == f"1 of {games} games"
        d.save_screenshot(str(SHOTS / "index-filtered.png"))
        d.find_element(By.ID, "filter").clear()
        d.find_element(By.ID, "filter").send_keys(" ")  # an input event with an empty query: all rows again
        period_header = d.find_element(By.CSS_SELECTOR, '#games th[data-col="4"]')
        period_header.click()  # sort by period, ascending: blanks (open games) last
        periods = [cells[4].strip() for _, _, cells in visible()]
        numbers = [int(p.replace(",", "")) for p in periods if p]
        assert numbers == sorted(numbers) and periods[-1] == ""
        d.find_element(By.ID, "filter").clear()
        d.find_element(By.ID, "filter").send_keys("0.77")
        d.find_element(By.LINK_TEXT, "0.77").click()
        assert "Kayles" in d.title and "period 12" in d.find_element(By.ID, "verdict").text
        d.save_screenshot(str(SHOTS / "kayles.png"))
        page = d.find_element(By.TAG_NAME, "body").text
        assert "an even number of the mask's bits (so value 0 is rare)" in page and "odd parity" not in page
        assert d.find_element(By.ID, "status").text == "Your move."  # a game is on the board before any click
        assert d.find_element(By.ID, "position").get_attribute("data-heaps") == "5 7 9"
        assert "\u25cf" * 5 in d.find_element(By.ID, "position").text  # heaps drawn as tokens
        values = nim_sequence("0.77", 200)
        heaps_box = d.find_element(By.ID, "heaps")
        heaps_box.clear()
        heaps_box.send_keys("5 8 13")
        d.find_element(By.ID, "start").click()
        status = d.find_element(By.ID, "status")

        def nim_sum(heaps):
            x = 0
            for h in heaps:
                x ^= values.value(h)
            return x

        moves = 0
        while not status.get_attribute("data-over"):
            assert status.text == "Your move."
            d.find_element(By.ID, "play").click()  # the first heap, the first take, the first leave
            moves += 1
            assert moves < 60
            log = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li")]
            if not log[-1].startswith("Engine: "):
                break
            # the position the engine faced: undo its logged move on the position shown now
            words = log[-1].removeprefix("Engine: take ").replace(",", "").split()
            took_from = int(words[2])
            leaves = [int(w) for w in words[4:] if w != "+"]
            now = [int(x) for x in d.find_element(By.ID, "position").get_attribute("data-heaps").split()]
            faced = list(now)
            for x in leaves:
                faced.remove(x)
            faced.append(took_from)
            if nim_sum(faced):
                assert nim_sum(now) == 0, (faced, now)  # a winning engine always leaves a P-position
        d.save_screenshot(str(SHOTS / "kayles-game-over.png"))
        log = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li")]
        assert log[0].startswith("You: take") and status.get_attribute("data-over") in ("you", "engine")
        assert status.text == ("You win: the engine has no move." if log[-1].startswith("You") else
                               "The engine wins: you have no move.")
        assert d.find_element(By.ID, "position").get_attribute("data-heaps") == ""  # Kayles ends with no tokens
    finally:
        d.quit()


# `octal census --digits 1 --prefix both`: 0.1 … 0.7 and 4.0 … 4.7
ONE_DIGIT_CODES = [f"0.{d}" for d in range(1, 8)] + [f"4.{d}" for d in range(8)]


@pytest.fixture(scope="module")
def census_site(tmp_path_factory) -> Path:
    """A census of the 1-digit codes of both prefixes, published by `write_site` as `octal site --db` does."""
    tmp = tmp_path_factory.mktemp("census-site")
    run_census(digits=1, prefix="both", db=tmp / "census.sqlite", workers=1)
    count, index = write_site(tmp / "site", db=tmp / "census.sqlite")
    assert count == len(ONE_DIGIT_CODES)
    return index.parent


def census_rows(db: Path) -> dict[str, dict]:
    """The census file's rows by code, read with plain SQL."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = {r["code"]: dict(r) for r in conn.execute("SELECT * FROM codes")}
    conn.close()
    return rows


def census_attrs(page: str) -> dict[str, dict[str, str]]:
    """data-code → the data attributes of every row of the census page's table."""
    rows = [dict(re.findall(r'data-(\w+)="([^"]*)"', tr)) for tr in re.findall(r"<tr\b[^>]*>", page)]
    return {r["code"]: r for r in rows if "code" in r}


@pytest.mark.slow
def test_the_census_page_has_a_row_per_code_with_what_the_filters_read(census_site):
    page = (census_site / "census.html").read_text()
    db = census_rows(census_site.parent / "census.sqlite")
    assert sorted(db) == ONE_DIGIT_CODES
    attrs = census_attrs(page)
    assert sorted(attrs) == ONE_DIGIT_CODES and page.count("<tr data-code=") == len(db)  # one row per code
    for code, row in db.items():
        a = attrs[code]
        assert a["status"] == row["status"]
        same = row["class"] if row["class"] != code else None
        assert a.get("same") == same  # only a row whose game another code already is
        if row["status"] == "proven":  # proved within the stage's budget; open rows carry neither
            assert (a["budget"], a["period"]) == (str(row["budget"]), str(row["period"]))
        else:
            assert "budget" not in a and "period" not in a
    assert db["0.6"]["status"] == "open" and db["0.7"]["class"] == "0.3"  # Officers open; 0.7 plays as 0.3
    # each code links to its game page, which exists (a preset's page carries its name)
    links = re.findall(r'<a href="(games/[^"]+)">([^<]+)</a>', page)
    assert sorted(code for _, code in links) == ONE_DIGIT_CODES and ("games/0.6-officers.html", "0.6") in links
    assert all((census_site / href).is_file() for href, _ in links)
    assert '<a href="census.html">' in (census_site / "index.html").read_text()
    proven = sum(r["status"] == "proven" for r in db.values())
    assert f"{len(db)} codes: {proven} proven, {len(db) - proven} open" in page
    assert "http://" not in page and "https://" not in page and "<script src" not in page
    # the page holds the rows, never their stored values: a light page, a few hundred bytes a code
    assert all("vals" not in g.row for g in games_from_db(census_site.parent / "census.sqlite"))
    assert max(len(tr) for tr in re.findall(r"<tr data-code.*?</tr>", page)) < 400


@pytest.mark.slow
def test_an_older_census_file_proves_within_no_recorded_budget(census_site, tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(census_site.parent / "census.sqlite", db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE codes SET budget = NULL WHERE code = '4.4'")
    conn.close()
    games = games_from_db(db)
    page = census_html(games)  # no pages written: codes without links
    assert census_attrs(page)["4.4"]["budget"] == "none" and '<option value="none">not recorded</option>' in page
    row = re.search(r'<tr data-code="4.4"[^>]*>(.*?)</tr>', page).group(1)
    assert re.findall(r"<td>([^<]*)</td>", row)[6] == ""  # "proved within" blank
    assert "Proven codes by budget: within 4,096 heaps 13, not recorded (an older file) 1." in page
    assert "<a href" not in page.split("<tbody>")[1]


@pytest.mark.slow
def test_a_person_filters_the_census_page(census_site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    db = census_rows(census_site.parent / "census.sqlite")
    SHOTS.mkdir(parents=True, exist_ok=True)
    d = browser()
    try:
        d.get((census_site / "census.html").as_uri())

        def visible():
            return [code for code, _, _ in shown_rows(d, "#census tbody tr")]

        def count():
            return d.find_element(By.ID, "count").text

        total = len(ONE_DIGIT_CODES)
        assert sorted(visible()) == ONE_DIGIT_CODES and count() == f"{total} of {total} codes"
        status, prefix = Select(d.find_element(By.ID, "status")), Select(d.find_element(By.ID, "prefix"))
        for st, pre in (("open", "4."), ("proven", "4."), ("open", "0.")):
            status.select_by_value(st)
            prefix.select_by_value(pre)
            want = sorted(c for c, r in db.items() if r["status"] == st and c.startswith(pre))
            assert sorted(visible()) == want and count() == f"{len(want)} of {total} codes"
        status.select_by_value("all")
        prefix.select_by_value("all")
        d.find_element(By.ID, "distinct").click()
        assert sorted(visible()) == sorted(c for c, r in db.items() if r["class"] in (None, c))
        d.find_element(By.ID, "distinct").click()
        d.find_element(By.ID, "pmin").send_keys("3")
        d.find_element(By.ID, "pmax").send_keys("20")
        assert sorted(visible()) == sorted(c for c, r in db.items() if r["period"] and 3 <= r["period"] <= 20)
        d.find_element(By.ID, "pmin").clear()
        d.find_element(By.ID, "pmax").clear()
        d.find_element(By.ID, "filter").send_keys(" ")  # an input event after the clears: every row again
        assert len(visible()) == total
        d.find_element(By.CSS_SELECTOR, '#census th[data-col="3"]').click()  # period, ascending: blanks last
        periods = [db[c]["period"] for c in visible()]
        assert periods == sorted(periods, key=lambda p: (p is None, p or 0)) and periods[-1] is None
        d.save_screenshot(str(SHOTS / "census.png"))
        d.find_element(By.LINK_TEXT, "0.6").click()
        assert "Officers" in d.title
    finally:
        d.quit()


def test_the_census_page_of_a_hexadecimal_census_shows_saltus_theorem_and_regularity(tmp_path):
    """A census with arithmetic periods (--hex): the page gains the saltus and theorem columns and the counts by
    regularity; 0.8's row says saltus 1 and the power-of-two saltus theorem, 0.A's saltus 0 and Guy–Smith."""
    db = tmp_path / "hex.sqlite"
    run_census(1, max_n=4096, workers=1, db=db, hexadecimal=True)
    page = census_html(games_from_db(db))
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", page).group(1)
    assert re.findall(r'title="sort">([^<]*)</th>', head)[2:6] == ["preperiod", "period", "saltus", "theorem"]
    cells = {code: re.findall(r"<td>([^<]*)</td>", row) for code, row in
             re.findall(r'<tr data-code="([^"]+)"[^>]*>(.*?)</tr>', page)}
    assert cells["0.8"][3:6] == ["3", "1", "power-of-two saltus theorem"]
    assert cells["0.A"][3:6] == ["2", "0", "Guy–Smith theorem"] and cells["0.9"][4:6] == ["", ""]
    assert ("By regularity: periodic (proven): 4 · arithmetic-periodic (proven): 2 · arithmetic-periodic (apparent): "
            "0 · no regularity found: 2.") in page
