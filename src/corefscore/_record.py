"""corefscore's dataclasses, made without ``dataclasses`` (and its NamedTuple and
TypedDict classes, made without compiling their annotations: at the end).

``import dataclasses`` imports ``inspect`` (about 9 ms of CPU), and
``@dataclasses.dataclass`` compiles each generated method with ``exec`` (about
1 ms a class on Python 3.11). The thirteen classes that ``corefscore score``
needs cost more than the rest of its start-up together (issue 17 asks for that
start-up within 1.5x ``import corefscore``), and every command and analysis pays
the same for its own. :func:`record` builds the same methods from closures
instead (about 50 µs a class), with the standard library's semantics for the
options corefscore uses (``frozen``, ``eq``, ``slots``, ``field(default=...,
default_factory=..., compare=..., repr=..., hash=..., init=...)``, inheritance,
``ClassVar`` and ``__post_init__``), those of the running Python where they differ
(equality is field by field from 3.13 on). Every corefscore dataclass is a record.

A record is a dataclass to its users: ``__dataclass_fields__`` and
``__dataclass_params__`` are built on first access, by applying the real
``dataclasses.dataclass`` to a twin of the class, so ``dataclasses.is_dataclass``,
``fields``, ``asdict``, ``astuple`` and ``replace`` work and see the standard
``Field`` objects. Assigning to a frozen record raises
``dataclasses.FrozenInstanceError``. Type checkers read :func:`record` through
``dataclass_transform``. ``tests/test_record.py`` checks every record against its
twin, and ``docs/griffe_records.py`` shows records in the API pages as griffe
shows dataclasses.
"""

from __future__ import annotations

import sys
from _thread import get_ident
from collections.abc import Callable, Sequence
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)
_F = TypeVar("_F")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    # Only type checkers read it; typing has it from Python 3.11 on.
    def dataclass_transform(**_: Any) -> Callable[[_F], _F]:
        return lambda function: function


__all__ = ["NamedTuple", "TypedDict", "asdict", "field", "made_from", "record", "replace"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()


class _FieldSpec:
    """What ``field(...)`` said about one field, until :func:`record` reads it."""

    __slots__ = ("compare", "default", "default_factory", "hash", "init", "repr")

    def __init__(
        self,
        default: Any,
        default_factory: Any,
        init: bool,
        repr: bool,
        hash: bool | None,
        compare: bool,
    ) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare


@overload
def field(
    *,
    default: _T,
    init: bool = ...,
    repr: bool = ...,
    hash: bool | None = ...,
    compare: bool = ...,
) -> _T: ...
@overload
def field(
    *,
    default_factory: Callable[[], _T],
    init: bool = ...,
    repr: bool = ...,
    hash: bool | None = ...,
    compare: bool = ...,
) -> _T: ...
@overload
def field(
    *,
    init: bool = ...,
    repr: bool = ...,
    hash: bool | None = ...,
    compare: bool = ...,
) -> Any: ...
def field(
    *,
    default: Any = _MISSING,
    default_factory: Any = _MISSING,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
) -> Any:
    """``dataclasses.field`` for a :func:`record` (the same keywords, without metadata)."""
    return _FieldSpec(default, default_factory, init, repr, hash, compare)


class _Field:
    __slots__ = ("annotation", "name", "spec")

    def __init__(self, name: str, spec: _FieldSpec, annotation: Any) -> None:
        self.name = name
        self.spec = spec
        self.annotation = annotation


def _is_classvar(annotation: Any, cls: type) -> bool:
    """Whether ``annotation`` is ``ClassVar``, by the standard library's rule for strings:
    its head must name ``typing.ClassVar`` in the class's module."""
    if isinstance(annotation, str) and "ClassVar" not in annotation:
        return False  # the common case, without a look at the module
    typing = sys.modules["typing"]
    if not isinstance(annotation, str):
        return annotation is typing.ClassVar or (
            getattr(annotation, "__origin__", None) is typing.ClassVar
        )
    module = sys.modules.get(cls.__module__)
    namespace = vars(module) if module is not None else {}
    head = annotation.split("[", 1)[0].strip()
    prefix, _, name = head.rpartition(".")
    if prefix:
        return name == "ClassVar" and namespace.get(prefix) is typing
    return namespace.get(head) is typing.ClassVar


@dataclass_transform(field_specifiers=(field,))
def record(*, frozen: bool = False, eq: bool = True, slots: bool = False) -> Callable[[_C], _C]:
    """``dataclasses.dataclass(frozen=..., eq=..., slots=...)``; see the module."""

    def wrap(cls: _C) -> _C:
        return _process(cls, frozen=frozen, eq=eq, slots=slots)  # type: ignore[return-value]

    return wrap


def _process(cls: type, *, frozen: bool, eq: bool, slots: bool) -> type:
    fields: dict[str, _Field] = {}
    for base in reversed(cls.__mro__[1:]):
        inherited = base.__dict__.get("__record_fields__")
        if inherited is not None:
            fields.update(inherited)
            if base.__dict__["__record_params__"]["frozen"] != frozen:
                raise TypeError(
                    "cannot inherit frozen dataclass from a non-frozen one"
                    if frozen
                    else "cannot inherit non-frozen dataclass from a frozen one"
                )
    # inspect.get_annotations would import inspect, which this module exists to avoid.
    own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    for name, annotation in own.items():
        if _is_classvar(annotation, cls):
            continue
        value = cls.__dict__.get(name, _MISSING)
        if isinstance(value, _FieldSpec):
            spec = value
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        else:
            spec = _FieldSpec(value, _MISSING, True, True, None, True)
        if spec.default is not _MISSING and type(spec.default).__hash__ is None:
            raise ValueError(
                f"mutable default {type(spec.default)} for field {name} is not allowed: "
                "use default_factory"
            )
        fields[name] = _Field(name, spec, annotation)

    init_fields = [f for f in fields.values() if f.spec.init]
    seen_default = False
    for f in init_fields:
        has_default = f.spec.default is not _MISSING or f.spec.default_factory is not _MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has_default

    if slots:
        cls = _with_slots(cls, fields)

    body: dict[str, Any] = {
        "__record_fields__": fields,
        "__record_params__": {"frozen": frozen, "eq": eq, "slots": slots},
        "__dataclass_fields__": _FromTwin("__dataclass_fields__", _FIELDS),
        "__dataclass_params__": _FromTwin("__dataclass_params__", _PARAMS),
        "__signature__": _FromTwin("__signature__", _signature),
        "__match_args__": tuple(f.name for f in init_fields),
        "__init__": _make_init(cls, fields, init_fields, frozen, slots),
        # What copy.replace calls (Python 3.13), as on a dataclass.
        "__replace__": replace,
    }
    if "__repr__" not in cls.__dict__:
        body["__repr__"] = _make_repr([f.name for f in fields.values() if f.spec.repr])
    compared = [f.name for f in fields.values() if f.spec.compare]
    if eq and "__eq__" not in cls.__dict__:
        body["__eq__"] = _make_eq(compared)
    explicit_hash = "__hash__" in cls.__dict__ and not (
        cls.__dict__["__hash__"] is None and "__eq__" in cls.__dict__
    )
    if eq and frozen and not explicit_hash:
        hashed = [
            f.name
            for f in fields.values()
            if (f.spec.compare if f.spec.hash is None else f.spec.hash)
        ]
        body["__hash__"] = _make_hash(hashed)
    elif eq and not frozen and not explicit_hash:
        body["__hash__"] = None
    if frozen:
        body["__setattr__"], body["__delattr__"] = _make_frozen(cls, fields)
        if slots:
            body["__getstate__"], body["__setstate__"] = _make_state(fields)
    for name, value in body.items():
        setattr(cls, name, value)
    if cls.__doc__ is None:
        cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in init_fields)})"
    return cls


def _with_slots(cls: type, fields: dict[str, _Field]) -> type:
    """A new class with ``__slots__`` for the fields that no base has slots for, as
    ``dataclass(slots=True)`` makes."""
    namespace = dict(cls.__dict__)
    inherited = {slot for base in cls.__mro__[1:-1] for slot in base.__dict__.get("__slots__", ())}
    namespace["__slots__"] = tuple(name for name in fields if name not in inherited)
    for name in fields:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    qualname = getattr(cls, "__qualname__", None)
    new = type(cls)(cls.__name__, cls.__bases__, namespace)
    if qualname is not None:
        new.__qualname__ = qualname
    return new


def _make_init(
    cls: type,
    fields: dict[str, _Field],
    init_fields: list[_Field],
    frozen: bool,
    slots: bool,
) -> Callable[..., None]:
    names = tuple(f.name for f in init_fields)
    count = len(names)
    position = {name: i for i, name in enumerate(names)}
    defaults = [f.spec.default for f in init_fields]
    factories = [f.spec.default_factory for f in init_fields]
    # Fields with init=False still get their default (or factory) in __init__.
    extra = [
        (f.name, f.spec.default, f.spec.default_factory)
        for f in fields.values()
        if not f.spec.init
        and (f.spec.default is not _MISSING or f.spec.default_factory is not _MISSING)
    ]
    post_init = hasattr(cls, "__post_init__")
    qualname = f"{cls.__qualname__}.__init__"
    set_attribute = object.__setattr__

    # What fills each position that the call leaves out, in field order.
    fills = list(zip(names, defaults, factories))

    def bind(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        given = len(args)
        if given > count:
            raise TypeError(
                f"{qualname}() takes {count + 1} positional arguments but {given + 1} were given"
            )
        values = [*args]
        take = kwargs.pop  # the call's own dict: what is left over is an error
        missing = []
        for name, default, factory in fills[given:]:
            value = take(name, _MISSING)
            if value is _MISSING:
                if default is not _MISSING:
                    value = default
                elif factory is not _MISSING:
                    value = factory()
                else:
                    missing.append(repr(name))
            values.append(value)
        for name in kwargs:
            i = position.get(name)
            if i is None:
                raise TypeError(f"{qualname}() got an unexpected keyword argument {name!r}")
            raise TypeError(f"{qualname}() got multiple values for argument {name!r}")
        if missing:
            listed = (
                missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + f" and {missing[-1]}"
            )
            raise TypeError(
                f"{qualname}() missing {len(missing)} required positional "
                f"argument{'s' if len(missing) > 1 else ''}: {listed}"
            )
        return values

    plain_defaults = {f.name: f.spec.default for f in init_fields if f.spec.default is not _MISSING}
    factory_fields = [
        (f.name, f.spec.default_factory)
        for f in init_fields
        if f.spec.default_factory is not _MISSING
    ]
    by_name = _getter(list(names), itemgetter)
    # tails[k]: what fills the fields after the first k when a call gives only k
    # positional arguments: their defaults, and the positions whose factory to call
    # (None where a field there is required, for bind() to explain).
    # From the last field back: once a field is required, every shorter call misses it.
    tails: list[tuple[tuple[Any, ...], list[tuple[int, Any]]] | None] = [None] * (count + 1)
    made: list[tuple[int, Any]] = []
    for k in range(count, -1, -1):
        if k < count:
            if defaults[k] is _MISSING and factories[k] is _MISSING:
                break
            if factories[k] is not _MISSING:
                made = [(k, factories[k]), *made]
        tails[k] = (tuple(defaults[k:]), made)

    def values_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Sequence[Any]:
        # The common calls (all positional; keywords, with defaults left out) take
        # a few C calls; bind() is the general case, and the one that explains errors.
        if args:
            if not kwargs:
                given = len(args)
                if given == count:
                    return args
                tail = tails[given] if given < count else None
                if tail is not None:
                    plain, made = tail
                    if not made:
                        return args + plain
                    values = [*args, *plain]
                    for i, factory in made:
                        values[i] = factory()
                    return values
            return bind(args, kwargs)
        if len(kwargs) != count:
            kwargs = {**plain_defaults, **kwargs}
            for name, factory in factory_fields:
                if name not in kwargs:
                    kwargs[name] = factory()
        if len(kwargs) == count:
            try:
                return by_name(kwargs)
            except KeyError:
                pass
        return bind((), kwargs)

    if slots and frozen:
        # Each slot's own descriptor writes it, past the frozen __setattr__, as
        # object.__setattr__ would, without looking the name up.
        slot_setters = [_slot(cls, name).__set__ for name in names]

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            for set_slot, value in zip(slot_setters, values_of(args, kwargs)):
                set_slot(self, value)
            for name, default, factory in extra:
                set_attribute(self, name, default if factory is _MISSING else factory())
            if post_init:
                self.__post_init__()

    elif not frozen:

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            for name, value in zip(names, values_of(args, kwargs)):
                setattr(self, name, value)
            for name, default, factory in extra:
                setattr(self, name, default if factory is _MISSING else factory())
            if post_init:
                self.__post_init__()

    else:
        # A frozen record without slots keeps its fields in __dict__, where
        # object.__setattr__ would put them: one update instead of a call a field.
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            if kwargs and tuple(kwargs) == names:  # every field by keyword, in order
                self.__dict__.update(kwargs)
            else:
                self.__dict__.update(zip(names, values_of(args, kwargs)))
            for name, default, factory in extra:
                set_attribute(self, name, default if factory is _MISSING else factory())
            if post_init:
                self.__post_init__()

    __init__.__qualname__ = qualname
    return __init__


def _slot(cls: type, name: str) -> Any:
    """The descriptor of slot ``name`` in ``cls`` or the base that declares it."""
    for klass in cls.__mro__:
        if name in klass.__dict__.get("__slots__", ()):
            return klass.__dict__[name]
    raise TypeError(f"{cls.__qualname__} has no slot {name!r}")


def _make_repr(names: list[str]) -> Callable[[Any], str]:
    # The objects whose repr is being made, per thread: a record that contains
    # itself shows "..." there, as reprlib.recursive_repr does for dataclasses.
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = (id(self), get_ident())
        if key in running:
            return "..."
        running.add(key)
        try:
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            running.discard(key)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _getter(
    names: list[str], make: Callable[..., Callable[[Any], Any]] = attrgetter
) -> Callable[[Any], tuple[Any, ...]]:
    """``make(*names)`` (``attrgetter`` or ``itemgetter``), always returning a tuple."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        one = make(names[0])
        return lambda obj: (one(obj),)
    return make(*names)


def _make_eq(names: list[str]) -> Callable[[Any, Any], Any]:
    if sys.version_info >= (3, 13):
        # Python 3.13's dataclasses compare field by field, joined by ``and``, after
        # ``self is other``: a field holding the same NaN twice is unequal to itself,
        # where the older tuple comparison found it equal.
        def __eq__(self: Any, other: Any) -> Any:
            if self is other:
                return True
            if other.__class__ is self.__class__:
                result: Any = True
                for name in names:
                    result = getattr(self, name) == getattr(other, name)
                    if not result:
                        return result
                return result
            return NotImplemented

        return __eq__

    values = _getter(names)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _make_hash(names: list[str]) -> Callable[[Any], int]:
    values = _getter(names)

    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen_error(action: str, name: str) -> Exception:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(f"cannot {action} field {name!r}")


def _make_frozen(
    owner: type, fields: dict[str, _Field]
) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    names = frozenset(fields)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if self.__class__ is owner or name in names:
            raise _frozen_error("assign to", name)
        # mypy misreads super() in a function defined outside its class.
        super(owner, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if self.__class__ is owner or name in names:
            raise _frozen_error("delete", name)
        super(owner, self).__delattr__(name)  # type: ignore[arg-type]

    return __setattr__, __delattr__


def _make_state(
    fields: dict[str, _Field],
) -> tuple[Callable[[Any], list[Any]], Callable[[Any, list[Any]], None]]:
    names = tuple(fields)

    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state):
            object.__setattr__(self, name, value)

    return __getstate__, __setstate__


class _FromTwin:
    """An attribute of a record taken from its dataclass twin on first access
    (``__dataclass_fields__``, ``__dataclass_params__``, ``__signature__``), then kept
    on the record in place of this descriptor."""

    def __init__(self, name: str, make: Callable[[type], Any]) -> None:
        self.name = name
        self.make = make

    def __get__(self, instance: Any, owner: type) -> Any:
        # The record that defines this descriptor, also when reached from a subclass.
        defining = next(c for c in owner.__mro__ if "__record_fields__" in c.__dict__)
        value = self.make(dataclass_twin(defining))
        type.__setattr__(defining, self.name, value)
        return value


def _signature(twin: type) -> Any:
    """The twin's ``inspect.signature``: the fields as parameters, as a dataclass shows
    them to ``help()`` and notebooks."""
    import inspect

    return inspect.signature(twin)


_FIELDS = attrgetter("__dataclass_fields__")
_PARAMS = attrgetter("__dataclass_params__")
_TWINS: dict[type, type] = {}


def dataclass_twin(cls: type) -> type:
    """The class that ``dataclasses.dataclass`` makes from the record ``cls``'s definition
    (its fields, defaults and options, its record bases as twins)."""
    twin = _TWINS.get(cls)
    if twin is not None:
        return twin
    import dataclasses

    base_twins = [dataclass_twin(b) for b in cls.__bases__ if "__record_fields__" in b.__dict__]
    annotated = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    own = {name: f for name, f in cls.__dict__["__record_fields__"].items() if name in annotated}
    namespace: dict[str, Any] = {
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__annotations__": {name: f.annotation for name, f in own.items()},
    }
    for name, f in own.items():
        spec = f.spec
        namespace[name] = dataclasses.field(
            default=spec.default if spec.default is not _MISSING else dataclasses.MISSING,
            default_factory=(
                spec.default_factory
                if spec.default_factory is not _MISSING
                else dataclasses.MISSING
            ),
            init=spec.init,
            repr=spec.repr,
            hash=spec.hash,
            compare=spec.compare,
        )
    params = cls.__dict__["__record_params__"]
    twin = dataclasses.dataclass(
        type(cls.__name__, tuple(base_twins) or (object,), namespace),
        frozen=params["frozen"],
        eq=params["eq"],
        slots=params["slots"],
    )
    _TWINS[cls] = twin
    return twin


def replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` for a record, without importing ``dataclasses``."""
    for f in type(obj).__record_fields__.values():  # type: ignore[attr-defined]
        if not f.spec.init:
            if f.name in changes:
                raise ValueError(
                    f"field {f.name} is declared with init=False, it cannot be "
                    "specified with replace()"
                )
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)


def made_from(cls: type[_T], fields: dict[str, Any]) -> _T:
    """The instance of the record ``cls`` that ``cls(**fields)`` makes, made without
    its ``__init__``, for the few records made on every call of a training loop
    (each metric's score, the result). ``fields`` must hold every field in order,
    and ``cls`` must be a record without slots, ``__post_init__`` or
    ``init=False`` fields: ``fields`` becomes the instance's ``__dict__``, as it
    is. Tests compare what it makes with the constructor's for each such record."""
    made: _T = object.__new__(cls)
    object.__setattr__(made, "__dict__", fields)
    return made


def asdict(obj: Any) -> dict[str, Any]:
    """``dataclasses.asdict`` for a record, without importing ``dataclasses``: its fields
    as a dict, records, lists, tuples, named tuples and dicts within converted in
    turn, other values deep-copied."""
    if not hasattr(type(obj), "__record_fields__"):
        raise TypeError("asdict() should be called on dataclass instances")
    return _plain(obj)  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    fields = getattr(type(value), "__record_fields__", None)
    if fields is not None:
        return {name: _plain(getattr(value, name)) for name in fields}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[_plain(item) for item in value])
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return type(value)((_plain(k), _plain(v)) for k, v in value.items())
    if hasattr(type(value), "__dataclass_fields__"):  # a dataclass not made here
        import dataclasses

        return dataclasses.asdict(value)
    import copy

    return copy.deepcopy(value)


# NamedTuple and TypedDict. With ``from __future__ import annotations`` (every
# corefscore module) a class's annotations are strings, and typing turns each field's
# string into a ``ForwardRef``, which compiles it: about 60 compilations in a run of
# `corefscore score`, the first of which builds the compiler's syntax-tree types
# (CPython's ``init_types``); together a tenth of the run's instructions on a small
# file. The classes made here are the same kind of class (a ``collections.namedtuple``
# with the class's methods and defaults; a ``dict`` subclass whose instances are plain
# dicts) whose ``__annotations__`` keep the strings as written. Type checkers read
# typing's own, and from Python 3.14 on (lazy annotations) these are typing's own at
# run time too. tests/test_typing_standins.py checks them against typing's.

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

    class _Base:
        """What ``class C(NamedTuple):`` and ``class C(TypedDict, total=...):`` name:
        as typing's own do, it puts its class among the bases in its place."""

        __slots__ = ("base", "name")

        def __init__(self, base: type, name: str) -> None:
            self.base = base
            self.name = name

        def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type]:
            return (self.base,)

        def __repr__(self) -> str:
            return f"corefscore._record.{self.name}"

    _NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})

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

    NamedTuple: Any = _Base(_NamedTupleBase, "NamedTuple")
    TypedDict: Any = _Base(_TypedDictBase, "TypedDict")
