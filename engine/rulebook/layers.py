"""Loading a rulebook file and applying layers: a Laws edition, the regulations that extend it,
what-if overlays. Every check a rule author can get wrong is reported with file:line:column."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path
from typing import Any

from . import conditions, formula
from . import infractions as infr
from . import parameters as params
from . import sources
from .adapter import stage_problem
from ..core.errors import BridgelawError, did_you_mean, quoted
from .stages import DECLARED, PARAMETER, STAGES, Stage
from ..core.yamlio import Document, load_yaml
from .files import available, extends_dirs, shared_dirs
from .model import TEMPLATE, Bound, Dated, Paragraph, Place, Rule, Rulebook, _hash
from .schema import LayerModel, RuleModel, RulebookModel, SharedModel

def load(path: str | Path, *, _stack: tuple[str, ...] = ()) -> Rulebook:
    """Load and check one rulebook file (and, for a regulation, the chain it extends)."""
    path = Path(path)
    doc = load_yaml(path)
    model = doc.validate(RulebookModel)
    if path.stem != model.rulebook:
        raise doc.error(["rulebook"], f"rulebook id '{model.rulebook}' does not match the file name '{path.name}'",
                        expected=f"rulebook: {path.stem}")
    if model.effective.from_ is None:
        raise doc.error(["effective"], "effective needs from: the date the rulebook comes into force",
                        expected="effective: {from: YYYY-MM-DD}")
    base = None
    if model.extends is not None:
        if model.extends in _stack + (model.rulebook,):
            cycle = " → ".join(_stack + (model.rulebook, model.extends))
            raise doc.error(["extends"], f"rulebook extends itself: {cycle}", expected="an extends chain without a cycle")
        known: dict[str, Path] = {}
        for folder in extends_dirs(path):       # its own folder first, then the offered rulebooks
            for name, file in available(folder).items():
                known.setdefault(name, file)
        if model.extends not in known:
            raise doc.error(["extends"], f"rulebook {model.rulebook} extends '{model.extends}', which is not in "
                            f"{' or '.join(str(d) for d in extends_dirs(path))}", expected="one of " + ", ".join(k for k in known if k != model.rulebook),
                            suggestion=did_you_mean(model.extends, known))
        base = load(known[model.extends], _stack=_stack + (model.rulebook,))
    elif not model.paragraphs or not model.rules:
        missing = "paragraphs" if not model.paragraphs else "rules"
        raise doc.error([], f"a rulebook that extends nothing needs {missing}",
                        expected=f"{missing}: … (or extends: <rulebook id>)")
    start = Rulebook(
        id=model.rulebook, title=model.title, authority=model.authority, version=model.version,
        effective_from=model.effective.from_, effective_until=model.effective.until,
        paragraphs=dict(base.paragraphs) if base else {}, all_rules=list(base.all_rules) if base else [],
        dated=dict(base.dated) if base else {}, path=path,
        sha256=_hash(base.sha256, doc.text) if base else _hash(doc.text),
        chain=(base.chain if base else []) + [model.rulebook], as_of=model.effective.from_,
        source=model.source, notes=model.notes, scope=model.scope, bounds=dict(base.bounds) if base else {},
        effective_source=model.effective.source,
        documents=dict(base.documents) if base else {}, parameter_sources=dict(base.parameter_sources) if base else {},
        infractions=dict(base.infractions) if base else {}, words=dict(base.words) if base else {},
    )
    shared = [_shared(doc, path, name, i) for i, name in enumerate(model.include)]
    if shared:
        start = dataclasses.replace(start, sha256=_hash(start.sha256, *(sdoc.text for sdoc, _ in shared)))
    book = _apply_layer(start, model, doc, model.rulebook, require_cites=base is not None, shared=shared)
    return book.at(book.clamp(None))


LAYER_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.ASCII)    # a file name in shared/, never a path


def _shared(doc: Document, path: Path, name: str, i: int) -> tuple[Document, SharedModel]:
    if not LAYER_NAME.fullmatch(name):
        raise doc.error(["include", i], f"include: {quoted(name, 40)} is not the name of a shared layer",
                        expected="the name of a file in the rulebooks' shared/ folder without .yaml, such as "
                        "wbf-law12 (lower-case letters, digits, - and _; at most 64; never a path)")
    for folder in shared_dirs(path):
        file = folder / f"{name}.yaml"
        if file.is_file():
            sdoc = load_yaml(file)
            model = sdoc.validate(SharedModel)
            if model.layer != name:
                raise sdoc.error(["layer"], f"shared layer '{model.layer}' does not match the file name '{file.name}'",
                                 expected=f"layer: {name}")
            return sdoc, model
    known = sorted({p.stem for d in shared_dirs(path) if d.is_dir() for p in d.glob("*.yaml")})
    raise doc.error(["include", i], f"no shared layer '{name}' in {' or '.join(str(d) for d in shared_dirs(path))}",
                    expected="one of " + (", ".join(known) or "(none)"), suggestion=did_you_mean(name, known))


def _apply_layer(book: Rulebook, model: LayerModel, doc: Document, origin: str, *, require_cites: bool,
                 shared: list[tuple[Document, Any]] = ()) -> Rulebook:
    """`book` with one layer's parameters, paragraphs, removals and rules applied."""
    documents = dict(book.documents)
    documents.update({k: sources.Document(k, **d.model_dump()) for k, d in model.documents.items()})
    paragraphs = dict(book.paragraphs)
    for ref, p in model.paragraphs.items():
        if ref in paragraphs:
            raise doc.error(["paragraphs", ref], f"paragraph {ref} is already defined by {paragraphs[ref].origin}",
                            key=True, expected="a new paragraph reference (regulations cite the Laws' paragraphs as they are)")
        citation, text = None, p.source if isinstance(p.source, str) else None
        if isinstance(p.source, sources.SourceModel):
            if p.source.document not in documents:
                raise doc.error(["paragraphs", ref, "source", "document"], f"paragraph {ref} cites document "
                                f"'{p.source.document}', which no layer declares under documents:",
                                suggestion=did_you_mean(p.source.document, documents))
            citation = sources.Citation(documents[p.source.document], p.source.section, p.source.url)
            text = citation.text
        paragraphs[ref] = Paragraph(ref, p.text.strip(), text, p.confirmed, origin, citation, p.modelling, p.tried)
    parameter_sources = dict(book.parameter_sources)
    for name, ps in model.parameter_sources.items():
        where = ["parameter_sources", name]
        if name not in params.PARAMETERS:
            raise doc.error(where, f"parameter_sources: unknown parameter '{name}'", key=True,
                            suggestion=did_you_mean(name, params.PARAMETERS))
        if bool(ps.cites) == bool(ps.modelling):
            raise doc.error(where, f"parameter_sources.{name}: give cites (paragraphs) or a modelling reason, not both",
                            expected="{cites: [<paragraph>]} or {modelling: <why>}")
        _check_cites(doc, where, f"parameter_sources.{name}", ps.cites, paragraphs)
        parameter_sources[name] = sources.ParameterSource(tuple(ps.cites), ps.modelling, origin)
    empowering = dict(book.infractions)
    for law, im in model.infractions.items():
        _check_cites(doc, ["infractions", law], f"infraction {law}", im.cites, paragraphs)
        if im.at_least is not None and im.at_least not in params.PARAMETERS:
            raise doc.error(["infractions", law, "at_least"], f"infraction {law}: unknown parameter '{im.at_least}'",
                            suggestion=did_you_mean(im.at_least, params.PARAMETERS))
        if im.artificial is not None and set(im.artificial) != {"nos", "os"}:
            raise doc.error(["infractions", law, "artificial"], f"infraction {law}: artificial gives the "
                            "responsibility of both sides", expected="artificial: {nos: <responsibility>, os: <responsibility>}")
        if im.declined is not None:
            _check_cites(doc, ["infractions", law, "declined"], f"infraction {law} declined", im.declined.cites,
                         paragraphs)
            if set(im.declined.artificial) != {"nos", "os"} or not im.requires:
                raise doc.error(["infractions", law, "declined"], f"infraction {law}: declined gives the "
                                "responsibility of both sides, for a law that requires a finding",
                                expected="declined: {artificial: {nos: …, os: …}, cites: [...]} with requires:")
        for name in im.should:
            if name in im.requires:
                raise doc.error(["infractions", law, "should", name], f"infraction {law}: '{name}' is both a "
                                "finding the law requires and one that says another should hold", key=True)
        empowering[law] = infr.Empowerment.of(law, im, origin)
    dated = dict(book.dated)
    bounds = dict(book.bounds)
    declared: dict[str, Bound] = {}
    for name, values in _parameters(doc, model.parameters, origin, require_cites, set(book.dated), declared).items():
        dated[name] = values
    if declared and len(book.chain) > 1 or declared and origin.endswith("+overlay"):
        name = next(iter(declared))
        raise doc.error(["parameters", *name.split(".")], f"parameter {name}: bounds (at_least, at_most) are the "
                        "Law's; only a Laws edition (a rulebook that extends nothing) declares them",
                        expected="a value within " + (bounds[name].text(name) if name in bounds else "the Law's bounds"))
    bounds.update(declared)
    for name, bound in bounds.items():
        for value in dated.get(name, ()):
            why = bound.violation(name, value.value)
            if why is None:
                continue
            where = list(value.place.path) or ["parameters", *name.split(".")]
            if value.place.doc is doc:
                raise doc.error(where, f"parameter {name}: {why}", expected=f"{name} {bound.text(name)}")
    for name, values in dated.items():
        for value in values:
            for ref in value.cites:
                if ref not in paragraphs:
                    raise doc.error(["parameters", *name.split(".")], f"parameter {name} cites {ref}, which this "
                                    "rulebook does not define", suggestion=did_you_mean(ref, paragraphs))
    rules = list(book.all_rules)
    for i, rm in enumerate(model.remove):
        here = ["remove", i]
        if rm.rule not in {r.id for r in rules}:
            raise doc.error(here + ["rule"], f"remove: '{rm.rule}' is not a rule of {book.chain[-2] if len(book.chain) > 1 else book.id}",
                            suggestion=did_you_mean(rm.rule, [r.id for r in rules]))
        _check_cites(doc, here, f"removal of {rm.rule}", rm.cites, paragraphs)
        rules = [r for r in rules if r.id != rm.rule]
    words = {fact: dict(meanings) for fact, meanings in book.words.items()}
    nameable = sorted({f for st in STAGES.values() for f, k in st.facts.items() if k == DECLARED} |
                      {n for n, (kind, _) in params.PARAMETERS.items() if isinstance(kind, tuple)})
    for fact, meanings in model.words.items():
        if fact not in nameable:
            raise doc.error(["words", fact], f"words: '{fact}' is neither a fact whose words a rulebook declares nor "
                            "a parameter whose value is a word", key=True, expected="one of " + ", ".join(nameable),
                            suggestion=did_you_mean(fact, nameable))
        kind = params.PARAMETERS[fact][0] if fact in params.PARAMETERS else None
        for word in meanings:
            if isinstance(kind, tuple) and word not in kind:
                raise doc.error(["words", fact, word], f"words: {fact} has no value '{word}'", key=True,
                                expected="one of " + ", ".join(kind), suggestion=did_you_mean(word, kind))
        words.setdefault(fact, {}).update(meanings)
    view = dataclasses.replace(book, paragraphs=paragraphs, dated=dated, bounds=bounds, all_rules=[], _evaluators={}, _views={},
                               rules=[], parameters={}, documents=documents, parameter_sources=parameter_sources,
                               infractions=empowering, words=words)
    ids = {r.id for r in rules}
    for sdoc, smodel in shared:
        for i, rm in enumerate(smodel.rules):
            rule = _rule(sdoc, view, i, rm, f"{origin} (shared layer {smodel.layer})")
            if rm.replaces is not None:
                raise sdoc.error(["rules", i, "replaces"], f"rule '{rm.id}': a shared layer adds rules; it does not "
                                 "replace them", key=True)
            if rule.id in ids:
                raise sdoc.error(["rules", i, "id"], f"rule id '{rule.id}' is already "
                                 f"{next(r for r in rules if r.id == rule.id).history[-1]}")
            rules.append(rule)
            ids.add(rule.id)
    for i, rm in enumerate(model.rules):
        here = ["rules", i]
        rule = _rule(doc, view, i, rm, origin)
        if rm.replaces is not None:
            if rm.replaces not in ids:
                raise doc.error(here + ["replaces"], f"rule '{rm.id}' replaces '{rm.replaces}', which "
                                f"{'the rulebook it extends does' if len(book.chain) > 1 else 'nothing'} not define",
                                suggestion=did_you_mean(rm.replaces, ids))
            old = next(r for r in rules if r.id == rm.replaces)
            rule.places = old.places + rule.places
            rules = [rule if r.id == rm.replaces else r for r in rules]
            ids = (ids - {rm.replaces}) | {rule.id}
            continue
        if rule.id in ids:
            defined = next(r for r in rules if r.id == rule.id).history[-1]
            message = (f"rule id '{rule.id}' is already {defined}; to change it write replaces: {rule.id}"
                       if len(book.chain) > 1 or origin.endswith("+overlay") else f"duplicate rule id '{rule.id}'")
            raise doc.error(here + ["id"], message)
        rules.append(rule)
        ids.add(rule.id)
    mine = {rm.id: i for i, rm in enumerate(model.rules)}
    for rule in rules:
        for j, target in enumerate(rule.overrides):
            if target in ids:
                continue
            if rule.id in mine and rule.source is model.rules[mine[rule.id]]:
                raise doc.error(["rules", mine[rule.id], "overrides", j], f"rule '{rule.id}' overrides '{target}', "
                                "which does not exist", suggestion=did_you_mean(target, ids))
            k = next((k for k, rm in enumerate(model.remove) if rm.rule == target), None)
            if k is not None:
                raise doc.error(["remove", k, "rule"], f"removing '{target}' leaves rule '{rule.id}' overriding "
                                "nothing", suggestion=f"remove or replace '{rule.id}' too")
            place = rule.places[-1]               # a rule of a shared layer (or of an earlier layer)
            where = place.doc if place.doc is not None else doc
            raise where.error(list(place.path) + ["overrides", j], f"rule '{rule.id}' overrides '{target}', which "
                              "does not exist", suggestion=did_you_mean(target, ids))
    _check_override_cycles(doc, rules)
    _check_stage_limits(doc, rules)
    return dataclasses.replace(view, all_rules=rules)


def _check_stage_limits(doc: Document, rules: list[Rule]) -> None:
    """Each stage's rules must fit durable_rules (adapter.stage_problem); the error points at the
    rule that crosses the limit, so `lint` and every command report it before it is used."""
    for stage_id in dict.fromkeys(r.stage for r in rules):
        mine = [r for r in rules if r.stage == stage_id]
        problem = stage_problem(stage_id, [(r.id, r.condition) for r in mine])
        if problem is not None:
            place = next((r.places[-1] for r in mine if r.id == problem.rule_id), None)
            if place is not None and place.doc is not None:
                raise place.doc.error(list(place.path), f"rule '{problem.rule_id}': {problem.message}",
                                      expected="fewer or simpler rules in this stage (docs/limits.md)")
            raise BridgelawError(problem.message, file=doc.file)


def _check_override_cycles(doc: Document, rules: list[Rule]) -> None:
    """Rules that override each other (directly or round a loop) would cancel out: refuse them."""
    graph = {r.id: set(r.overrides) for r in rules}
    for start in graph:
        path, todo = [start], [(start, [start])]
        while todo:
            node, path = todo.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    raise BridgelawError(f"rules override each other in a loop: {' → '.join(path + [start])}",
                                         file=doc.file, expected="overrides that say which rule wins, one way")
                if nxt not in path:
                    todo.append((nxt, path + [nxt]))


def _parameters(doc: Document, raw: dict[str, Any], origin: str, require_cites: bool,
                inherited: set[str], bounds: dict[str, Bound] | None = None) -> dict[str, list[Dated]]:
    """Flatten the nested parameters block to dotted names: plain values, {value, cites,
    effective} or a list of those (dated values); each checked against the registry."""
    flat: dict[str, list[Dated]] = {}

    def entry(node: Any, name: str, where: list) -> Dated:
        if isinstance(node, dict) and "value" in node:
            keys = ["value", "cites", "effective", "at_least", "at_most"]
            extra = set(node) - set(keys)
            if extra:
                key = sorted(extra)[0]
                raise doc.error(where + [key], f"parameter {name}: unknown key '{key}'", key=True,
                                expected=", ".join(keys), suggestion=did_you_mean(key, keys))
            cites = node.get("cites") or []
            if not isinstance(cites, list):
                raise doc.error(where + ["cites"], f"parameter {name}: cites is a list of paragraphs")
            if "at_least" in node or "at_most" in node:
                if not cites:
                    raise doc.error(where, f"parameter {name}: a bound needs the paragraph that sets it",
                                    expected="cites: [<paragraph>]")
                limits = []
                for key in ("at_least", "at_most"):
                    try:
                        limits.append(params.check(name, node[key]) if key in node else None)
                    except ValueError as exc:
                        raise doc.error(where + [key], f"parameter {name}: {key}: {exc}") from None
                if bounds is not None:
                    bounds[name] = Bound(limits[0], limits[1], tuple(str(c) for c in cites))
            eff = node.get("effective") or {}
            if not isinstance(eff, dict) or set(eff) - {"from", "until"}:
                raise doc.error(where + ["effective"], f"parameter {name}: effective is {{from: date, until: date}}")
            value, start, end = node["value"], eff.get("from"), eff.get("until")
            for key, day in (("from", start), ("until", end)):
                if day is not None and not isinstance(day, dt.date):
                    raise doc.error(where + ["effective", key], f"parameter {name}: effective {key} is not a date",
                                    expected="YYYY-MM-DD")
            if start is not None and end is not None and end < start:
                raise doc.error(where + ["effective"], f"parameter {name}: effective until is before from")
        else:
            value, cites, start, end = node, [], None, None
        if require_cites and not cites:
            what = "overrides an inherited value" if name in inherited else "is set by a regulation"
            raise doc.error(where, f"parameter {name} {what}: give the regulation paragraph it rests on",
                            expected=f"{name.split('.')[-1]}: {{value: …, cites: [<paragraph>]}}")
        try:
            checked = params.check(name, value)
        except ValueError as exc:
            raise doc.error(where, f"parameter {name}: {exc}") from None
        return Dated(checked, start, end, tuple(str(c) for c in cites), Place(origin, doc, tuple(where)))

    def walk(node: Any, prefix: list[str]) -> None:
        name = ".".join(prefix)
        if isinstance(node, dict) and "value" not in node:
            for key, value in node.items():
                walk(value, prefix + [str(key)])
            return
        where = ["parameters", *prefix]
        if name not in params.PARAMETERS:
            raise doc.error(where, f"unknown parameter '{name}'", key=True,
                            expected="one of " + ", ".join(params.PARAMETERS),
                            suggestion=did_you_mean(name, params.PARAMETERS))
        values = [entry(item, name, where + [i]) for i, item in enumerate(node)] if isinstance(node, list) \
            else [entry(node, name, where)]
        for i, a in enumerate(values):
            for b in values[i + 1:]:
                if (a.start is None or b.end is None or a.start <= b.end) and \
                        (b.start is None or a.end is None or b.start <= a.end):
                    raise doc.error(where, f"parameter {name} has two values in force at once ({a.period} and {b.period})",
                                    expected="dated values whose periods do not overlap")
        flat[name] = values

    walk(raw, [])
    return flat


def _check_cites(doc: Document, here: list, what: str, cites: list[str], paragraphs: dict[str, Paragraph]) -> None:
    for j, ref in enumerate(cites):
        if ref not in paragraphs:
            raise doc.error(here + ["cites", j], f"{what} cites {ref}, which this rulebook does not define",
                            expected="a paragraph listed under paragraphs:", suggestion=did_you_mean(ref, paragraphs))


def _rule(doc: Document, book: Rulebook, i: int, rm: RuleModel, origin: str) -> Rule:
    here = ["rules", i]
    stage = STAGES.get(rm.stage)
    if stage is None:
        raise doc.error(here + ["stage"], f"rule '{rm.id}': unknown stage '{rm.stage}'",
                        expected="one of " + ", ".join(STAGES), suggestion=did_you_mean(rm.stage, STAGES))
    try:
        cond = conditions.parse(rm.when, book.vocabulary(stage))
    except conditions.ConditionError as exc:
        raise doc.error(here + ["when", *exc.path], f"rule '{rm.id}': {exc.message}",
                        expected=exc.expected, suggestion=exc.suggestion) from None
    _check_cites(doc, here, f"rule '{rm.id}'", rm.cites, book.paragraphs)
    verb = f"replaces {rm.replaces} in" if rm.replaces else "defined in"
    mentions = tuple(dict.fromkeys(TEMPLATE.findall(rm.explain)))
    for name in mentions:
        if name not in book.dated:
            line, col = doc.text_position(here + ["explain"], max(rm.explain.find("{" + name), 0))
            raise BridgelawError(f"rule '{rm.id}': explain shows {{{name}}}, which is not a parameter of this rulebook",
                                 file=doc.file, line=line, column=col, expected="{<parameter>} for a parameter the rulebook sets",
                                 suggestion=did_you_mean(name, book.dated))
    rule = Rule(id=rm.id, stage=rm.stage, condition=cond, explain=" ".join(rm.explain.split()), cites=tuple(rm.cites),
                overrides=tuple(rm.overrides), outcome=rm.outcome,
                start=rm.effective.from_ if rm.effective else None, end=rm.effective.until if rm.effective else None,
                places=[Place(f"{verb} {origin}", doc, tuple(here))], source=rm, mentions=mentions)
    if stage.produces == "award":
        _check_award(doc, book, stage, rm, here, rule)
    else:
        _check_apply(doc, book, stage, rm, here, rule)
    return rule


def _check_award(doc: Document, book: Rulebook, stage: Stage, rm: RuleModel, here: list, rule: Rule) -> None:
    if rm.apply is not None:
        raise doc.error(here + ["apply"], f"rule '{rm.id}': stage {stage.id} rules give an award, not apply", key=True)
    if stage.outcomes and rm.outcome is None:
        raise doc.error(here, f"rule '{rm.id}' needs an outcome", expected="outcome: one of " + ", ".join(stage.outcomes))
    if stage.outcomes and rm.outcome not in stage.outcomes:
        raise doc.error(here + (["outcome"] if rm.outcome else []),
                        f"rule '{rm.id}': outcome '{rm.outcome}' is not one of stage {stage.id}'s outcomes",
                        expected=", ".join(stage.outcomes), suggestion=did_you_mean(rm.outcome or "", stage.outcomes))
    if not stage.outcomes and rm.outcome is not None:
        raise doc.error(here + ["outcome"], f"rule '{rm.id}': stage {stage.id} rules have no outcome", key=True)
    award = rm.award or {}
    if rm.outcome in stage.no_award:
        if award:
            raise doc.error(here + ["award"], f"rule '{rm.id}': outcome {rm.outcome} awards no score", key=True)
        return
    missing = [k for k in stage.award_keys if k not in award]
    if missing:
        raise doc.error(here + (["award"] if rm.award else []), f"rule '{rm.id}': award lacks {', '.join(missing)}",
                        expected="award: {" + ", ".join(f"{k}: <formula>" for k in stage.award_keys) + "}")
    allowed = set(stage.formula_names) | set(book.dated)
    for key, text in award.items():
        if key not in stage.award_keys:
            raise doc.error(here + ["award", key], f"rule '{rm.id}': unknown award key '{key}'", key=True,
                            expected=", ".join(stage.award_keys), suggestion=did_you_mean(key, stage.award_keys))
        try:
            parsed = formula.parse(text)
        except formula.FormulaError as exc:
            line, col = doc.text_position(here + ["award", key], exc.column - 1)
            shown = str(text) if len(str(text)) <= 80 else str(text)[:80] + "…"
            raise BridgelawError(f"rule '{rm.id}': formula '{shown}': {exc.message}", file=doc.file, line=line,
                                 column=col,
                                 expected="arithmetic (+ - * / parentheses) over names such as A, B, C, B'") from None
        for name in sorted(parsed.names - allowed):
            line, col = doc.text_position(here + ["award", key], max(str(text).find(name), 0))
            raise BridgelawError(f"rule '{rm.id}': formula '{text}' uses unknown name '{name}'", file=doc.file,
                                 line=line, column=col, expected=conditions.facts_hint(allowed),
                                 suggestion=did_you_mean(name, allowed))
        rule.award[key] = parsed


def _check_apply(doc: Document, book: Rulebook, stage: Stage, rm: RuleModel, here: list, rule: Rule) -> None:
    if rm.award is not None or rm.outcome is not None:
        bad = "award" if rm.award is not None else "outcome"
        raise doc.error(here + [bad], f"rule '{rm.id}': stage {stage.id} rules say what to apply, not an {bad}", key=True)
    apply = rm.apply or {}
    for key in apply:
        if key not in stage.apply_options:
            raise doc.error(here + ["apply", key], f"rule '{rm.id}': unknown apply key '{key}'", key=True,
                            expected=", ".join(stage.apply_options), suggestion=did_you_mean(key, stage.apply_options))
    for key, choices in stage.apply_options.items():
        value = apply.get(key)
        if value is None and key in stage.apply_defaults:
            continue
        where = here + (["apply", key] if key in apply else ["apply"] if rm.apply else [])
        if choices == PARAMETER:
            if value not in book.dated:
                raise doc.error(where, f"rule '{rm.id}': apply.{key} names a parameter, and '{value}' is not one "
                                "this rulebook sets", suggestion=did_you_mean(str(value), book.dated))
            continue
        if value not in choices:
            raise doc.error(where, f"rule '{rm.id}': apply.{key} must be one of {', '.join(choices)}",
                            suggestion=did_you_mean(str(value), choices) if value else None)
    rule.apply = dict(apply)
    if apply.get("method") == "threshold":
        for role in ("nos", "os"):          # where to start, and a probability to reach or a word to carry
            for key in (f"{role}_from",) + (() if apply.get(f"{role}_judged") else (f"{role}_threshold",)):
                if apply.get(key) is None:
                    raise doc.error(here + ["apply"], f"rule '{rm.id}': method threshold needs apply.{key}",
                                    expected="nos_threshold/os_threshold: <parameter> (or nos_judged/os_judged: "
                                    "likely or at-all-probable), nos_from/os_from: most-favourable or least-favourable")


# --- what-if ----------------------------------------------------------------------------------

def with_overlay(book: Rulebook, path: str | Path, text: str | None = None) -> Rulebook:
    """`book` with a what-if overlay file applied (a layer without identity, ``<book>+overlay``);
    with `text` (the web page's), `path` only names it."""
    doc = load_yaml(path, text=text)
    return with_layer(book, doc, doc.validate(LayerModel), "overlay")


def with_layer(book: Rulebook, doc: Document, model: LayerModel, name: str, origin: str | None = None) -> Rulebook:
    """`book` with one what-if layer applied — an overlay file's, or a scoring program's profile
    (field/profiles.py builds its layer from the profile's file) — as the rulebook ``<book>+<name>``;
    `origin` says where its values come from (default: that id)."""
    changed = _apply_layer(book, model, doc, origin or f"{book.id}+{name}", require_cites=False)
    return dataclasses.replace(changed, id=f"{book.id}+{name}", sha256=_hash(book.sha256, doc.text),
                               _evaluators={}, _views={}, rules=[], parameters={})


def proposed(book: Rulebook, overlay: str | Path | None, settings: list[str] | None,
             overlay_text: str | None = None) -> Rulebook:
    """`book` with an overlay file (or its `overlay_text`), then PARAM=VALUE settings, applied (the
    overlay first, so that a --set wins over it): a proposed change, no file edited."""
    if overlay or overlay_text:
        book = with_overlay(book, overlay or "overlay.yaml", overlay_text)
    if settings:
        book = book.with_settings(settings)
    return book
