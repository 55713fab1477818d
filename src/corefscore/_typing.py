"""``typing.NamedTuple`` and ``typing.TypedDict`` classes without compiling
their annotations.

With ``from __future__ import annotations`` (every corefscore module) a
class's annotations are strings, and typing turns each field's string into a
``ForwardRef``, which compiles it: about 60 compilations in a run of
`corefscore score`, the first of which builds the compiler's syntax-tree
types (CPython's ``init_types``). Together they were a tenth of the run's
instructions on a small file. The classes made here are the same kind of
class (a ``collections.namedtuple`` with the class's methods and defaults; a
``dict`` subclass whose instances are plain dicts) whose ``__annotations__``
keep the strings as written. Type checkers read typing's own, and from
Python 3.14 on (lazy annotations) these are typing's own at run time too.
``tests/test_typing_standins.py`` checks them against typing's.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

__all__ = ["NamedTuple", "TypedDict"]

if TYPE_CHECKING or sys.version_info >= (3, 14):
    from typing import NamedTuple, TypedDict
else:
    import collections

    # What typing refuses to overwrite, and leaves out, when it copies a
    # NamedTuple class's namespace onto the namedtuple.
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults"}
        | {"_make", "_replace", "_asdict", "_source"}
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    def _set_name(cls: type, key: str, value: Any) -> None:
        # From Python 3.12 on, typing calls __set_name__ on what it copies.
        set_name = getattr(type(value), "__set_name__", None)
        if set_name is not None and sys.version_info >= (3, 12):
            set_name(value, cls, key)

    class _NamedTupleMeta(type):
        def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> type:  # type: ignore[misc]
            if bases != (_NamedTupleBase,):
                raise TypeError("can only inherit from a NamedTuple type")
            annotations = dict(ns.get("__annotations__", {}))
            defaults: list[str] = []
            for name in annotations:
                if name in ns:
                    defaults.append(name)
                elif defaults:
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default field"
                        f"{'s' if len(defaults) > 1 else ''} {', '.join(defaults)}"
                    )
            made: Any = collections.namedtuple(
                typename,
                list(annotations),
                defaults=[ns[name] for name in defaults],
                module=ns["__module__"],
            )
            made.__annotations__ = made.__new__.__annotations__ = annotations
            for key, value in ns.items():
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in made._fields:
                    setattr(made, key, value)
                    _set_name(made, key, value)
            return made  # type: ignore[no-any-return]

    _NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

    class _NamedTupleFactory:
        """``class C(NamedTuple):``, as typing's ``NamedTuple`` reads it."""

        __slots__ = ()

        def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type]:
            return (_NamedTupleBase,)

        def __repr__(self) -> str:
            return "corefscore._typing.NamedTuple"

    class _TypedDictMeta(type):
        def __new__(
            cls, name: str, bases: tuple[type, ...], ns: dict[str, Any], total: bool = True
        ) -> type:  # type: ignore[misc]
            for base in bases:
                if type(base) is not _TypedDictMeta:
                    raise TypeError(
                        "cannot inherit from both a TypedDict type and a non-TypedDict base class"
                    )
            made: Any = type.__new__(_TypedDictMeta, name, (dict,), ns)
            annotations: dict[str, Any] = {}
            required: set[str] = set()
            optional: set[str] = set()
            for base in bases:
                # A base's own keys, as typing reads them (not inherited ones).
                annotations.update(base.__dict__.get("__annotations__", {}))  # noqa: RUF063
                required.update(base.__dict__.get("__required_keys__", ()))
                optional.update(base.__dict__.get("__optional_keys__", ()))
            own = ns.get("__annotations__", {})
            annotations.update(own)
            (required if total else optional).update(own)
            made.__annotations__ = annotations
            made.__required_keys__ = frozenset(required)
            made.__optional_keys__ = frozenset(optional)
            if sys.version_info >= (3, 13):
                made.__readonly_keys__ = frozenset()
                made.__mutable_keys__ = frozenset(annotations)
            if not hasattr(made, "__total__"):
                made.__total__ = total
            return made  # type: ignore[no-any-return]

        __call__ = dict

        def __subclasscheck__(cls, other: Any) -> bool:
            raise TypeError("TypedDict does not support instance and class checks")

        __instancecheck__ = __subclasscheck__

    _TypedDictBase = type.__new__(_TypedDictMeta, "TypedDict", (), {})

    class _TypedDictFactory:
        """``class C(TypedDict, total=...):``, as typing's ``TypedDict`` reads it."""

        __slots__ = ()

        def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type]:
            return (_TypedDictBase,)

        def __repr__(self) -> str:
            return "corefscore._typing.TypedDict"

    NamedTuple: Any = _NamedTupleFactory()
    TypedDict: Any = _TypedDictFactory()
