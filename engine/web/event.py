"""The event page (``GET|POST /event``): upload a results file (PBN or USEBIO) and a rulings
file, see the session results with the adjusted lines marked, download the corrected PBN or
USEBIO — ``bridgelaw event`` on the web.

Safety as for the traveller page: uploads are parsed in memory, nothing is written to disk, a
file name from the form only names the file in messages (reduced to a safe base name) and picks
the format by its extension; the rulebook is one of the server's rulebook ids — a rulings file
naming another is refused.
"""

from __future__ import annotations

import base64

from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import BridgelawError
from ..render import event as report
from ..field.run import load_event, outputs, refuse_unreproduced, run
from ..core.exact import format_decimal
from ..core.yamlio import load_yaml
from ..core.vocab import METHODS
from ..field import profiles
from .service import safe_name

MAX_BYTES = 256 * 1024
MAX_SETTINGS = 40


def _d(v: Any) -> str:
    return "" if v is None else format_decimal(v, 2)


def options() -> dict[str, Any]:
    """The form's choices: scoring methods and the programs' profiles."""
    return {"methods": list(METHODS), "profiles": {p.id: p.title for p in profiles.profiles().values()}}


def view(scored: list) -> list[dict]:
    out = []
    for ss in scored:
        t_places, p_places = report.printed_places(ss)
        rows = [{"rank": st.rank_text, "pair": st.key.split(":")[-1], "group": " ".join(
                    x for x in (st.group[0] if st.group else st.section, (st.group[1] if st.group else st.direction)
                                or "") if x),
                 "total": report.fixed_or_blank(st.total, t_places), "percent": report.fixed_or_blank(st.percent, p_places),
                 "boards": st.boards, "names": st.contestant.names if st.contestant and st.contestant.names else "",
                 "adjusted": ", ".join(st.adjusted)} for st in ss.standings]
        lines = [{"label": sl.line.label, "ns": sl.line.ns, "ew": sl.line.ew, "what": report._what(sl.line),
                  "NS": _d(sl.NS.value), "EW": _d(sl.EW.value), "note": (sl.line.ruling or {}).get("note"),
                  "steps": report.steps(sl, book=ss.book), "rules": report.rules(sl), "citations": sl.citations}
                 for _, sl in report.adjusted_lines(ss)]
        checks = ss.checks()
        lr = ss.learning
        out.append({"name": ss.session.name, "scoring": ss.session.scoring, "unit": ss.unit,
                    "rulebook": ss.book.identity, "rows": rows, "lines": lines, "warnings": ss.warnings,
                    "conventions": ss.conventions.text if ss.conventions is not None else None,
                    "learnt": report.conventions_lines(ss), "published": report.published_lines(ss, 20),
                    "reproduced": lr is None or lr.reproduced,
                    "checked": len(checks), "agree": sum(c.agrees for c in checks)})
    return out


async def handle(request: Request, page, books) -> Response:
    if request.method == "GET":
        return page(request, "event.html", form={}, options=options())
    try:
        data = await request.form(max_files=2, max_fields=16, max_part_size=MAX_BYTES)
    except Exception:
        return page(request, "event.html", 400, form={}, options=options(), problem="The form could not be read; choose the files again.")
    form = {k: data.get(k) if isinstance(data.get(k), str) else "" for k in (
        "rulebook", "rulings", "download", "event_text", "event_name", "scoring", "profile", "overlay", "settings",
        "rescore_all")}
    if form["scoring"] not in METHODS:
        form["scoring"] = ""
    if form["profile"] not in ("", "none", *profiles.profiles()):
        form["profile"] = ""
    settings = [s.strip() for s in form["settings"].splitlines() if s.strip()]
    upload = data.get("event_file")
    if isinstance(upload, UploadFile) and upload.filename:
        raw = await upload.read()
        name = safe_name(upload.filename, "event.pbn")
    elif form["event_text"]:
        # the page's own copy of the upload (base64: byte for byte — a browser sends a form's line breaks
        # as CRLF); an older page's latin-1 or UTF-8 text
        name = form["event_name"]
        if name.endswith(".b64"):
            try:
                raw = base64.b64decode(form["event_text"], validate=True)
            except ValueError:
                return page(request, "event.html", 400, form={}, options=options(),
                            problem="The form could not be read; choose the files again.")
        else:
            raw = form["event_text"].encode("latin-1", "replace") if name.endswith(".latin1") \
                else form["event_text"].encode("utf-8")
        name = safe_name(name.removesuffix(".b64").removesuffix(".latin1"), "event.pbn")
    else:
        return page(request, "event.html", 400, form=form, options=options(),
                    problem="Choose a results file (.pbn or USEBIO .xml).")
    rulings_upload = data.get("rulings_file")
    if isinstance(rulings_upload, UploadFile) and rulings_upload.filename:
        form["rulings"] = (await rulings_upload.read()).decode("utf-8", "replace")
    if form["rulebook"] not in books.ids():
        form["rulebook"] = books.default()
    try:
        if form["rulings"].strip():
            tree = load_yaml("rulings.yaml", text=form["rulings"]).tree
            named = tree.get("rulebook") if isinstance(tree, dict) else None
            if named is not None and named not in books.ids():
                raise BridgelawError(f"rulings.yaml: unknown rulebook '{named}'",
                                     expected="one of " + ", ".join(books.ids()))
            if named:
                form["rulebook"] = named
        if len(settings) > MAX_SETTINGS:
            raise BridgelawError(f"{len(settings)} settings", expected=f"at most {MAX_SETTINGS}, one PARAM=VALUE a line")
        event = load_event(name, form["scoring"] or None, text=raw)
        scored = run(event, "rulings.yaml" if form["rulings"].strip() else None, str(books.path(form["rulebook"])),
                     settings, rulings_text=form["rulings"], profile=form["profile"] or None,
                     overlay_text=form["overlay"] if form["overlay"].strip() else None)
        if form["download"] in ("pbn", "xml"):
            # as `bridgelaw event --output`: no file contradicting the one uploaded unless the box is ticked
            refuse_unreproduced(event, scored, form["rescore_all"] == "yes")
            stem = name.rsplit(".", 1)[0]
            ((_, text, encoding),) = outputs(event, scored, [f"{stem}-corrected.{form['download']}"], name)
            media = "application/xml" if form["download"] == "xml" else "text/plain"
            return Response(text.encode(encoding), media_type=f"{media}; charset={encoding}", headers={
                "Content-Disposition": f'attachment; filename="{stem}-corrected.{form["download"]}"'})
    except BridgelawError as exc:
        return page(request, "event.html", 422, form=form, options=options(), problem=str(exc))
    form["event_text"] = base64.b64encode(raw).decode("ascii")      # the upload, byte for byte, for the downloads
    form["event_name"] = name + ".b64"
    return page(request, "event.html", form=form, options=options(), sessions=view(scored))
