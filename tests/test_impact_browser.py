"""The impact report's HTML page in a real headless Chromium (as tests/test_web_browser.py drives
it): it opens from a file with nothing fetched, its three plots are drawn, and the figures the
browser reads off the page are the CSV's."""

from __future__ import annotations

import csv
import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from bridgelaw.commands import cli
from bridgelaw.field import season

REPO = Path(__file__).resolve().parent.parent
EVENTS = REPO / "tests" / "data" / "events"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1000"]

if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    reason = "no /usr/bin/chromium or /usr/bin/chromedriver (apt-get install chromium chromium-driver)"
    if os.environ.get("CI"):
        pytest.fail(f"browser tests need Chromium on CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402

RULINGS = """\
rulebook: wbf-2017
rulings:
  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}}
  - {board: 9, table: 3, artificial: {NS: avg-minus, EW: avg-plus}}
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, list[dict[str, str]]]:
    folder = tmp_path_factory.mktemp("season")
    shutil.copy(EVENTS / "ffb-magic-contest-2022-open-dn1-s1.pbn", folder / "s1.pbn")
    (folder / f"s1{season.RULINGS_SUFFIX}").write_text(RULINGS)
    shutil.copy(EVENTS / "ffb-magic-contest-2022-open-dn1-s5.pbn", folder / "s5.pbn")
    shutil.copy(EVENTS / "compscore-mp-pairs-mitchell.xml", folder / "club.xml")
    page = folder / "impact.html"
    argv = ["impact", "--rulebooks", "wbf-2017", "--set", "artificial.pairs.avg_plus=70%", "--set",
            "artificial.pairs.avg_minus=30%", str(folder), "--jobs", "1", "--no-cache"]
    assert cli.main([*argv, "--format", "html", "--output", str(page)]) == 0
    out = folder / "impact.csv"
    assert cli.main([*argv, "--format", "csv", "--output", str(out)]) == 0
    return page, list(csv.DictReader(io.StringIO(out.read_text())))


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="bridgelaw-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_the_report_opens_and_its_figures_are_the_csvs(report, browser):
    page, rows = report
    browser.get(page.as_uri())
    assert browser.title.startswith("Impact: wbf-2017 compared with wbf-2017 with --set")
    # nothing fetched: no resource besides the page itself
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    # three plots, each drawn (a bar has a width on the screen)
    figures = browser.execute_script("""
        return Array.from(document.querySelectorAll('figure')).map(f => ({
            id: f.id,
            bars: Array.from(f.querySelectorAll('rect.bar')).map(r => ({
                label: r.dataset.label, value: Number(r.dataset.value),
                width: r.getBoundingClientRect().width}))}));""")
    assert [f["id"] for f in figures] == ["distribution", "places", "affected"]
    assert all(b["width"] > 0 for f in figures for b in f["bars"])
    by_file = {r["file"]: r for r in rows}
    affected = {b["label"]: b["value"] for b in figures[2]["bars"]}
    assert affected and affected == {f: int(r["changed_lines"]) for f, r in by_file.items()
                                     if f != "TOTAL" and r["changed_lines"] != "0"}
    total = by_file["TOTAL"]
    shown = browser.execute_script("const t = document.getElementById('totals').dataset; "
                                   "return [t.changedLines, t.changedContestants, t.places]")
    assert shown == [total["changed_lines"], total["changed_contestants"], total["places_changed"]]
    # the distribution counts every changed contestant with a percentage; places moved every place change
    assert sum(b["value"] for b in figures[0]["bars"]) == int(total["changed_contestants"])
    assert sum(b["value"] for b in figures[1]["bars"]) == int(total["places_changed"])
    # the per-event table as the browser shows it is the CSV without its rulings column
    table = browser.execute_script("""
        return Array.from(document.querySelectorAll('#events tr')).slice(1).map(
            tr => Array.from(tr.cells).map(td => td.textContent));""")
    assert table == [[r[c] for c in r if c != "rulings"] for r in rows]
