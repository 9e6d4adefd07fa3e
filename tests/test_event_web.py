"""The event page: upload a results file and a rulings file, see the marked results, download
the corrected PBN / USEBIO; nothing from the request names a server file."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from starlette.testclient import TestClient

from bridgelaw.commands.event import load_event
from bridgelaw.web.app import create_app
from bridgelaw.web.event import unpack

DATA = Path(__file__).parent / "data" / "events"
MAGIC = DATA / "ffb-magic-contest-2022-open-dn1-s1.pbn"
RULINGS = "rulebook: wbf-2017\nrulings:\n  - {board: 4, table: 2, artificial: {NS: avg-plus, EW: avg-minus}, note: fouled}\n"


def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def test_event_page_scores_marks_and_downloads(tmp_path):
    c = client()
    assert c.get("/event").status_code == 200
    files = {"event_file": ("../../etc/final.pbn", MAGIC.read_bytes(), "text/plain")}
    r = c.post("/event", files=files, data={"rulings": RULINGS, "rulebook": "wbf-2017"})
    assert r.status_code == 200, r.text[:500]
    text = unescape(r.text)
    assert "<strong>board 4 table 2</strong>" in text and "note: fouled" in text and "avg-plus-pairs" in text
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', r.text))
    assert hidden["event_name"] == "final.pbn"                        # a base name only
    assert unpack(hidden["event_z"]) == MAGIC.read_bytes()            # the file's bytes exact, its encoding kept
    d = c.post("/event", data={**{k: unescape(v) for k, v in hidden.items()}, "download": "pbn"})
    assert d.status_code == 200 and 'filename="final-corrected.pbn"' in d.headers["content-disposition"]
    out = tmp_path / "final-corrected.pbn"
    out.write_bytes(d.content)
    assert "Séance".encode("latin-1") in d.content                   # ISO-8859-1 kept
    again = load_event(str(out))
    line = next(l for l in again.sessions[0].boards[4].lines if l.table == 2)
    assert line.kind == "artificial" and line.extra["adjustment"] == "art NS=3/5 EW=2/5"
    x = c.post("/event", data={**{k: unescape(v) for k, v in hidden.items()}, "download": "xml"})
    assert x.status_code == 200 and b"<!-- bridgelaw: art NS=3/5 EW=2/5 -->" in x.content


def test_event_page_refuses_a_rulebook_path_and_cross_site_posts():
    c = client()
    files = {"event_file": ("final.pbn", MAGIC.read_bytes(), "text/plain")}
    r = c.post("/event", files=files, data={"rulings": "rulebook: /etc/passwd\nrulings: []\n"})
    assert r.status_code == 422 and "unknown rulebook" in r.text
    r = c.post("/event", files=files, data={"rulings": ""}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = c.post("/event", files={"event_file": ("x.txt", b"hello", "text/plain")}, data={})
    assert r.status_code == 422 and "not a .pbn or .xml file" in r.text


def test_event_page_never_reads_a_file_an_upload_names(tmp_path, monkeypatch):
    # an uploaded YAML adjustments file's pbn: was opened beside the server's working folder
    (tmp_path / "secret.pbn").write_bytes(MAGIC.read_bytes())
    monkeypatch.chdir(tmp_path)
    r = client().post("/event", files={"event_file": ("x.yaml", b"pbn: secret.pbn\nrulebook: wbf-2017\n",
                                                      "text/plain")}, data={})
    assert r.status_code == 422
    assert ("x.yaml:1:1: pbn: names a file beside the adjustments file; adjustments sent as text cannot name one "
            "(expected the PBN file sent with the adjustments)") in unescape(r.text)
    assert "secret.pbn" not in unescape(r.text).replace("pbn: secret.pbn", "")


def test_event_page_takes_the_commands_scoring_options():
    """Issue 20 item 7: the page offered no scoring method, --set, overlay or profile, so it could
    not match any program's rounding. The same file scored four ways, each as the command would."""
    c = client()
    page = c.get("/event").text
    assert 'name="profile"' in page and 'name="settings"' in page and 'name="overlay"' in page
    assert 'name="scoring"' in page and "Compscore3" in page
    xml = (DATA / "compscore-butler-howell.xml").read_bytes()

    def agree(**data):
        r = c.post("/event", files={"event_file": ("b.xml", xml, "application/xml")},
                   data={"rulebook": "wbf-2017", **data})
        assert r.status_code == 200, unescape(r.text)[:400]
        text = unescape(r.text)
        return re.search(r"Published figures: (\d+) of (\d+)", text).groups(), text

    (a, n), text = agree()
    assert (a, n) == ("296", "296") and "Program: Compscore3 13-Mar-26 Pianola — profile compscore" in text
    assert "Conventions: 296 of 296 published figures of unruled boards and contestants reproduced" in text
    # with no profile the file's conventions are learnt (issue 28): the heading says which and from what
    (a, _), text = agree(profile="none")
    assert a == "296" and "Program: none (--profile none)" in text
    assert "butler.round_datum_to 10 — learnt from 7 boards of the file; 0 before: 280 of 280 figures" in text
    (a, _), _ = agree(profile="none", settings="fieldscore.butler.round_datum_to=10\nfieldscore.butler.round_half=away")
    assert a == "296"
    overlay = "parameters:\n  fieldscore:\n    butler: {round_datum_to: {value: 0}}\n"
    (a, _), _ = agree(overlay=overlay)
    assert int(a) < 296
    r = c.post("/event", files={"event_file": ("b.xml", xml, "application/xml")},
               data={"rulebook": "wbf-2017", "settings": "fieldscore.nope=1"})
    assert r.status_code == 422 and "unknown parameter" in unescape(r.text)
