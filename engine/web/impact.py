"""The impact page (``GET|POST /impact``): upload a few results files (with their rulings files,
``NAME.rulings.yaml``) and a proposal — an overlay, settings, or another rulebook — and see the
report ``bridgelaw impact`` gives (field/season.py's replay of each file, render/impact.py's
summary and plots).

Safety as for the event page: uploads are parsed in memory, nothing is written; a file name from
the form only names the file in messages (a safe base name) and picks its format and its rulings
by name; the rulebooks are the server's ids, given to the replay as the server's own files. At
most MAX_FILES files, each within the server's body bound.
"""

from __future__ import annotations

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from ..field import season
from ..render import impact as report
from .service import safe_name

MAX_FILES = 12
MAX_BYTES = 256 * 1024
MAX_SETTINGS = 40


async def handle(request: Request, page, books) -> Response:
    if request.method == "GET":
        return page(request, "impact.html", form={})
    try:
        data = await request.form(max_files=2 * MAX_FILES + 1, max_fields=8, max_part_size=MAX_BYTES)
    except Exception:                         # noqa: BLE001 — any malformed form: the page says so
        return page(request, "impact.html", 400, form={}, problem="The form could not be read; choose the files again.")
    form = {k: data.get(k) if isinstance(data.get(k), str) else "" for k in ("current", "proposed", "overlay", "settings")}
    ids = books.ids()
    for key in ("current", "proposed"):
        if form[key] not in ids:
            form[key] = books.default() if key == "current" else ""
    settings = tuple(s.strip() for s in form["settings"].splitlines() if s.strip())
    uploads: dict[str, bytes] = {}
    for item in data.getlist("files"):
        if isinstance(item, UploadFile) and item.filename:
            uploads[safe_name(item.filename, f"file-{len(uploads) + 1}.pbn")] = await item.read()
    overlay = data.get("overlay_file")
    if isinstance(overlay, UploadFile) and overlay.filename:
        form["overlay"] = (await overlay.read()).decode("utf-8", "replace")
    results = {n: b for n, b in uploads.items() if n.lower().endswith(season.RESULTS_SUFFIXES)}
    problem = None
    if not results:
        problem = "Choose one or more results files (.pbn or USEBIO .xml), with their rulings files (NAME.rulings.yaml)."
    elif len(results) > MAX_FILES:
        problem = f"{len(results)} results files; at most {MAX_FILES} at a time (the command line takes a season)."
    elif len(settings) > MAX_SETTINGS:
        problem = f"{len(settings)} settings; at most {MAX_SETTINGS}, one PARAM=VALUE a line."
    elif not (form["proposed"] or settings or form["overlay"].strip()):
        problem = "Give the proposal: another rulebook, settings, or an overlay."
    if problem:
        return page(request, "impact.html", 400, form=form, problem=problem)
    spec = season.Spec(current=str(books.path(form["current"])),
                       proposed=str(books.path(form["proposed"] or form["current"])), settings=settings,
                       overlay="overlay.yaml" if form["overlay"].strip() else None,
                       overlay_text=form["overlay"] if form["overlay"].strip() else None)
    out = []
    for name, raw in results.items():
        rulings_name = name.rsplit(".", 1)[0] + season.RULINGS_SUFFIX
        rulings = uploads.get(rulings_name)
        out.append(season.replay(name, rulings_name if rulings is not None else None, spec, data=raw,
                                 rulings_text=rulings.decode("utf-8", "replace") if rulings is not None else None))
    summary = report.summarise(out, spec)
    summary["current"], summary["proposed"] = form["current"], form["proposed"] or form["current"]
    if spec.overlay:
        summary["overlay"] = "the overlay"
    return page(request, "impact.html", form=form, report=report.body(summary), summary=summary)

