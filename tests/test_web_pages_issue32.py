"""Issue 32, item 4: the forms and pages. Every error of a form at once (not one a submit), the
summary focusable and focused; no server path in any page; the optional sections of the ruling
form folded unless they hold something."""

from __future__ import annotations

import re
from html import unescape

import pytest
from starlette.testclient import TestClient

from bridgelaw.web.app import create_app
from bridgelaw.rulebook import available, rules_dir

BAD = {"rulebook": "wbf-2017", "title": "", "date": "2025-03-04", "scoring": "imps", "board_number": "x7",
       "vulnerability": "NS", "kind": "assigned", "non_offending": "NS", "table_result": "5HX+9 N",
       "other_table": "3S+1 W", "b_mode": "weighted", "wi_result_0": "4H-1 N", "wi_weight_0": "2/3",
       "wi_result_1": "4Q= N", "wi_weight_1": "1/2", "action": "rule"}


@pytest.fixture(scope="module")
def c() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def summary(html: str) -> list[tuple[str, str]]:
    box = html.split('id="errors"')[1].split("</div>")[0]
    return [(name, unescape(re.sub(r"<[^>]+>", "", text)).strip())
            for name, text in re.findall(r'<li><a href="#f-([\w-]+)">[^<]*</a>:(.*?)</li>', box, re.S)]


@pytest.mark.parametrize("path", ["/", "/compare"])
def test_every_error_of_the_form_at_once(c, path):
    r = c.post(path, data={**BAD, "compare_sent": "1", "compare": ["wbf-2017"]})
    assert r.status_code == 422
    assert '<div class="error-summary" role="alert" aria-labelledby="error-summary-h" id="errors" tabindex="-1" ' \
           'autofocus>' in r.text
    assert summary(r.text) == [
        ("board_number", "Must be a whole number, such as 7"),
        ("table_result", "'5HX+9 N': 5HX+9 needs 20 tricks, but a deal has only 13 (expected the most 5HX can make "
                         "is 5HX+2)"),
        ("wi_result_1", "'4Q= N': not a result: '4Q= N' (expected a result such as 4SX-2 W, 3NT= S, 4♠= N or PASS, "
                        "or a score such as NS +620)"),
        ("title", "This is needed here"),
        ("wi", "The weights sum to 1 1/6, not 1 (expected weights that add up to exactly 1 (e.g. 2/3 and 1/3, or "
               "60% and 40%))"),
    ]
    # each beside its field too, and the form keeps what was typed
    for name in ("board_number", "table_result", "wi_result_1", "title", "wi"):
        assert f'<p class="error" id="e-{name}">' in r.text
    assert 'value="4Q= N"' in r.text and 'value="x7"' in r.text


def test_a_good_form_has_no_error_and_one_error_is_one(c):
    good = {**BAD, "title": "Board 7", "board_number": "7", "table_result": "5HX-2 N", "wi_result_1": "4H= N",
            "wi_weight_1": "1/3"}
    assert c.post("/", data=good).status_code == 200
    r = c.post("/", data={**good, "board_number": "seven"})
    assert r.status_code == 422 and [n for n, _ in summary(r.text)] == ["board_number"]


def test_no_page_shows_the_server_folder(c):
    folder = str(rules_dir())
    for path in ("/", "/compare", "/event", "/traveller"):
        page = c.get(path).text
        assert folder not in page and "/work/" not in page, path
        assert re.search(rf'<footer class="site">bridgelaw [\d.]+ · {len(available())} rulebooks</footer>', page)
    assert folder not in c.post("/", data=BAD).text
