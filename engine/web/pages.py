"""The ruling page: ``GET|POST /`` (the form: rule it, or add or remove a row), ``POST /upload``
(open a case file), ``POST /case.yaml`` (download the form as a case file), ``POST /slip``
(the printable slip). The form is written as case YAML and ruled by the engine's own path
(:func:`bridgelaw.web.service.rule_text`), as ``bridgelaw rule`` rules a file."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import BridgelawError
from ..core.yamlio import load_yaml
from . import forms, service
from .answers import MAX_BODY, general
from .forms import CaseForm
from .site import Site, form_data, site_of


def ruled(site: Site, request: Request, f: CaseForm, *, template: str = "rule.html") -> Response:
    text, rowmap = f.to_yaml()
    try:
        case, ruling = service.rule_text(text, "the form", site.books)
    except BridgelawError:
        errors = forms.all_errors(f, lambda t: service.rule_text(t, "the form", site.books))
        return site.page(request, "rule.html", 422, form=f, errors=errors)
    return site.page(request, template, form=f, r=service.view(ruling, case))


async def home(request: Request) -> Response:
    site = site_of(request)
    if request.method in ("GET", "HEAD"):
        return await site.work(lambda: site.page(request, "rule.html", form=site.default_form()))
    f, action, _ = await read_form(request)

    def answer() -> Response:
        if f.apply(action):
            return site.page(request, "rule.html", form=f)
        return ruled(site, request, f)
    return await site.work(answer)


async def slip(request: Request) -> Response:
    site = site_of(request)
    f, _, _ = await read_form(request)
    return await site.work(lambda: ruled(site, request, f, template="slip.html"))


async def download(request: Request) -> Response:
    site = site_of(request)
    f, _, _ = await read_form(request)

    def written() -> Response:
        now = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        text, _ = f.to_yaml(header=f"bridgelaw case, saved from the web page on {now}\n"
                                   "rule it again with: bridgelaw rule THIS-FILE.yaml, or open it on the web page")
        return Response(text, media_type="application/yaml; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{case_filename(f)}"'})
    return await site.work(written)


async def upload(request: Request) -> Response:
    site = site_of(request)
    data = await form_data(request, max_files=1, max_fields=20, max_part_size=MAX_BODY)
    if data is None:
        return site.page(request, "rule.html", 400, form=site.default_form(),
                         errors=general("The upload could not be read; choose a case file (.yaml) and try again."))
    upload_file = data.get("case_file")
    if not isinstance(upload_file, UploadFile) or not upload_file.filename:
        return site.page(request, "rule.html", 400, form=site.default_form(),
                         errors=general("Choose a case file (.yaml) to open."))
    name = service.safe_name(upload_file.filename, "case.yaml")
    raw = await upload_file.read()
    return await site.work(opened, site, request, name, raw)


def opened(site: Site, request: Request, name: str, raw: bytes) -> Response:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return site.page(request, "rule.html", 400, form=site.default_form(),
                         errors=general(f"{name} is not a text file in UTF-8; is it a case file (.yaml)?"))
    try:
        doc = load_yaml(name, text=text)
    except BridgelawError as exc:
        return site.page(request, "rule.html", 400, form=site.default_form(), errors=general(str(exc)))
    too_long = forms.check_list_lengths(doc.tree)
    if too_long:
        path, n, limit = too_long
        return site.page(request, "rule.html", 422, form=site.default_form(),
                         errors=general(f"{name}: {'.'.join(map(str, path))} lists {n} entries; at most {limit} "
                                        "are accepted here"))
    f = forms.form_from_tree(doc.tree)
    f.compare = site.books.in_force(service.case_day(f.date))
    return ruled(site, request, f)


async def read_form(request: Request) -> tuple[CaseForm, str, Any]:
    data = await form_data(request, max_files=0, max_fields=300, max_part_size=MAX_BODY)
    if data is None:
        raise HTTPException(400, "The form could not be read; reload the page and try again.")
    f, action = CaseForm.from_form(data, getlist=data.getlist)
    return f, action, data


def case_filename(f: CaseForm) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", f.title.lower()).strip("-")[:48].strip("-")
    board = f"board-{f.board_number}" if f.board_number.isascii() and f.board_number.isdigit() else ""
    if board and words.startswith(board):
        board = ""
    stem = "-".join(p for p in (board, words) if p) or "case"
    return f"{stem}.yaml"
