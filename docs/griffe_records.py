"""Griffe extension for the API pages: corefscore's records shown as the dataclasses they are.

Griffe reads the source without importing it, and knows a dataclass by its
``@dataclasses.dataclass`` decorator. The types on the command line's start-up
path are made by ``corefscore._record.record`` instead (see that module), which
is a dataclass at run time. This extension gives those classes what griffe gives
a dataclass: the "dataclass" label and an ``__init__`` whose parameters are the
fields, with their defaults and factories, the fields of record bases first.
"""

from __future__ import annotations

from typing import Any

import griffe

RECORD = "corefscore._record.record"
FIELD = "corefscore._record.field"


def _callee(expr: object) -> str | None:
    if isinstance(expr, griffe.ExprCall):
        expr = expr.function
    return getattr(expr, "canonical_path", None)


def _is_record(cls: griffe.Class) -> bool:
    return any(_callee(decorator.value) == RECORD for decorator in cls.decorators)


def _field_keywords(value: object) -> dict[str, Any] | None:
    """The keywords of ``field(...)``, or None when the value is a plain default."""
    if isinstance(value, griffe.ExprCall) and _callee(value) == FIELD:
        return {
            argument.name: argument.value
            for argument in value.arguments
            if isinstance(argument, griffe.ExprKeyword)
        }
    return None


def _own_parameters(cls: griffe.Class) -> list[griffe.Parameter]:
    parameters = []
    for member in cls.members.values():
        if not isinstance(member, griffe.Attribute) or member.annotation is None:
            continue
        if "property" in member.labels:
            continue
        if "class-attribute" in member.labels and "instance-attribute" not in member.labels:
            continue  # ClassVar
        keywords = _field_keywords(member.value)
        default: Any
        if keywords is None:
            default = member.value
        elif str(keywords.get("init")) == "False":
            continue
        elif "default_factory" in keywords:
            default = griffe.ExprCall(function=keywords["default_factory"], arguments=[])
        else:
            default = keywords.get("default")
        parameters.append(
            griffe.Parameter(
                member.name,
                annotation=member.annotation,
                kind=griffe.ParameterKind.positional_or_keyword,
                default=default,
                docstring=member.docstring,
            )
        )
    return parameters


def _set_init(cls: griffe.Class) -> None:
    parameters: dict[str, griffe.Parameter] = {}
    try:
        mro = cls.mro()
    except ValueError:
        mro = []
    for klass in [*reversed(mro), cls]:
        if _is_record(klass):
            parameters.update((p.name, p) for p in _own_parameters(klass))
    cls.labels.add("dataclass")
    self_parameter = griffe.Parameter(
        "self", annotation=None, kind=griffe.ParameterKind.positional_or_keyword, default=None
    )
    init = griffe.Function(
        "__init__",
        lineno=0,
        endlineno=0,
        parent=cls,
        parameters=griffe.Parameters(self_parameter, *parameters.values()),
        returns="None",
    )
    cls.set_member("__init__", init)


def _visit(obj: griffe.Module | griffe.Class) -> None:
    for member in obj.members.values():
        if member.is_alias:
            continue
        if isinstance(member, griffe.Class):
            if _is_record(member) and "__init__" not in member.members:
                _set_init(member)
            _visit(member)
        elif isinstance(member, griffe.Module):
            _visit(member)


class RecordsExtension(griffe.Extension):
    """Show ``@record`` classes as dataclasses."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _visit(pkg)
