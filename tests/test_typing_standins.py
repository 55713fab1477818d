"""corefscore._record's NamedTuple and TypedDict against typing's own.

The same class bodies are made with both; everything a user or a library can
see must agree, but for the annotations, which stay the strings written
instead of ``ForwardRef`` objects (``typing.get_type_hints`` reads both the same).
"""

from __future__ import annotations

import copy
import pickle
import sys
import typing
from typing import Any

import pytest

from corefscore import _record

from .test_record import package_classes

HEADER = "from __future__ import annotations\n"

NAMED_TUPLES = {
    "plain": """
class T(NamedTuple):
    a: int
    b: str
""",
    "defaults and a docstring": '''
class T(NamedTuple):
    """A documented tuple."""

    a: int
    b: list[int] | None = None
    c: float = 1.5
''',
    "methods, properties, class methods": """
class T(NamedTuple):
    a: int
    b: int = 2

    def total(self) -> int:
        return self.a + self.b

    @property
    def double(self) -> int:
        return 2 * self.a

    @classmethod
    def of(cls, n: int) -> T:
        return cls(n, n)

    LIMIT = 3
""",
    "no fields": """
class T(NamedTuple):
    pass
""",
}

FAILING_NAMED_TUPLES = {
    "a field without a default after one with": """
class T(NamedTuple):
    a: int = 1
    b: int
""",
    "a namedtuple attribute overwritten": """
class T(NamedTuple):
    a: int

    def _replace(self, **kwargs):
        return self
""",
}


def make(source: str, base: str, module: Any) -> Any:
    namespace: dict[str, Any] = {"__name__": "made_here", base: getattr(module, base)}
    exec(HEADER + source, namespace)
    return namespace["T"]


def both(source: str, base: str) -> tuple[Any, Any]:
    return make(source, base, typing), make(source, base, _record)


@pytest.mark.parametrize("source", NAMED_TUPLES.values(), ids=list(NAMED_TUPLES))
def test_a_named_tuple_is_typing_s(source: str) -> None:
    real, ours = both(source, "NamedTuple")
    assert ours.__mro__[1:] == real.__mro__[1:] == (tuple, object)
    for name in ("_fields", "_field_defaults", "__doc__", "__module__", "__qualname__"):
        assert getattr(ours, name) == getattr(real, name), name
    assert ours.__new__.__defaults__ == real.__new__.__defaults__
    assert set(vars(ours)) == set(vars(real))
    # The annotations: the strings as written, which read as typing's types.
    assert list(ours.__annotations__) == list(real.__annotations__)
    assert all(isinstance(v, str) for v in ours.__annotations__.values())
    assert [ref.__forward_arg__ for ref in real.__annotations__.values()] == list(
        ours.__annotations__.values()
    )
    assert ours.__new__.__annotations__ == ours.__annotations__
    hints = {"T": ours}
    assert typing.get_type_hints(ours, localns=hints) == typing.get_type_hints(real, localns=hints)
    # Instances behave alike.
    args = tuple(range(len(real._fields) - len(real._field_defaults)))
    a, b = real(*args), ours(*args)
    assert tuple(a) == tuple(b) and a == b and hash(a) == hash(b)
    assert repr(a) == repr(b)
    assert a._asdict() == b._asdict()
    assert ours._make(tuple(b)) == b
    assert copy.deepcopy(b) == b
    if real._fields:
        assert b._replace(**{real._fields[0]: 9}) == a._replace(**{real._fields[0]: 9})
    if hasattr(real, "total"):
        assert b.total() == a.total() and b.double == a.double and ours.of(4) == real.of(4)
        assert ours.LIMIT == real.LIMIT == 3
    # Wrong calls fail alike.
    for call in ((), (*args, 1, 2, 3, 4), ()):
        try:
            real(*call)
        except TypeError as expected:
            with pytest.raises(TypeError) as got:
                ours(*call)
            assert str(got.value) == str(expected)
        else:
            assert ours(*call) == real(*call)


@pytest.mark.parametrize("source", FAILING_NAMED_TUPLES.values(), ids=list(FAILING_NAMED_TUPLES))
def test_a_named_tuple_is_refused_as_typing_refuses_it(source: str) -> None:
    with pytest.raises((TypeError, AttributeError)) as expected:
        make(source, "NamedTuple", typing)
    with pytest.raises(expected.type) as got:
        make(source, "NamedTuple", _record)
    assert str(got.value) == str(expected.value)


TYPED_DICTS = {
    "total": """
class T(TypedDict):
    a: int
    b: str | None
""",
    "not total, documented": '''
class T(TypedDict, total=False):
    """Options."""

    a: int
    b: list[str]
''',
}


@pytest.mark.parametrize("source", TYPED_DICTS.values(), ids=list(TYPED_DICTS))
def test_a_typed_dict_is_typing_s(source: str) -> None:
    real, ours = both(source, "TypedDict")
    for name in ("__required_keys__", "__optional_keys__", "__total__", "__doc__", "__module__"):
        assert getattr(ours, name) == getattr(real, name), name
    for name in ("__readonly_keys__", "__mutable_keys__"):
        assert getattr(ours, name, None) == getattr(real, name, None), name
    assert ours.__mro__[1:] == real.__mro__[1:] == (dict, object)
    assert [ref.__forward_arg__ for ref in real.__annotations__.values()] == list(
        ours.__annotations__.values()
    )
    assert typing.get_type_hints(ours) == typing.get_type_hints(real)
    made = ours(a=1, b="x")
    assert type(made) is dict and made == real(a=1, b="x")
    for check in (isinstance, issubclass):
        with pytest.raises(TypeError) as expected:
            check({} if check is isinstance else dict, real)
        with pytest.raises(TypeError) as got:
            check({} if check is isinstance else dict, ours)
        assert str(got.value) == str(expected.value)


def test_a_typed_dict_inherits_keys_as_typing_s_does() -> None:
    source = """
class Base(TypedDict):
    a: int

class T(Base, total=False):
    b: str
"""
    real, ours = both(source, "TypedDict")
    assert ours.__required_keys__ == real.__required_keys__ == {"a"}
    assert ours.__optional_keys__ == real.__optional_keys__ == {"b"}
    assert list(ours.__annotations__) == list(real.__annotations__) == ["a", "b"]
    with pytest.raises(TypeError) as expected:
        make("class T(TypedDict, int):\n    a: int\n", "TypedDict", typing)
    with pytest.raises(TypeError) as got:
        make("class T(TypedDict, int):\n    a: int\n", "TypedDict", _record)
    assert str(got.value) == str(expected.value)


def corefscore_classes() -> list[type]:
    """Every NamedTuple and TypedDict class of corefscore's modules."""

    def typed(cls: type) -> bool:
        if cls.__module__ == _record.__name__:
            return False  # the stand-ins' own bases
        named_tuple = issubclass(cls, tuple) and hasattr(cls, "_field_defaults")
        return named_tuple or type(cls).__name__ == "_TypedDictMeta"

    return package_classes(typed)


def test_corefscore_s_classes_are_made_here_and_read_as_typing_reads_them() -> None:
    classes = corefscore_classes()
    assert len(classes) >= 12
    for cls in classes:
        assert all(isinstance(v, str) for v in cls.__annotations__.values()), cls
        if hasattr(cls, "_fields"):
            assert list(cls._fields) == list(cls.__annotations__), cls
            made = cls._make(range(len(cls._fields)))
            assert pickle.loads(pickle.dumps(made)) == made
        else:
            assert cls.__required_keys__ | cls.__optional_keys__ == set(cls.__annotations__)


@pytest.mark.skipif(sys.version_info < (3, 14), reason="Python 3.14 uses typing's own")
def test_from_python_3_14_on_typing_s_own_are_used() -> None:
    assert _record.NamedTuple is typing.NamedTuple
    assert _record.TypedDict is typing.TypedDict
