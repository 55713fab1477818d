"""``corefscore._record.record`` behaves as ``dataclasses.dataclass`` does.

Each case defines one class body twice, once under ``record`` and once under the
standard library's ``dataclass``, and compares what users see: construction and
its errors, defaults and factories, ``__post_init__``, repr, equality, hashing,
frozenness, ``fields``, ``replace``, ``asdict``, pickling and inheritance.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corefscore import _record
from corefscore._record import dataclass_twin, field, record
from corefscore.errors import UsageError

OPTIONS = [
    {"frozen": frozen, "eq": eq, "slots": slots}
    for frozen in (False, True)
    for eq in (True, False)
    for slots in (False, True)
]


def both(
    name: str,
    annotations: dict[str, str],
    body: dict[str, Any],
    options: dict[str, bool],
    bases: tuple[type, type] | None = None,
) -> tuple[type, type]:
    """The class made by ``record`` and the one made by ``dataclass``, from one body.

    ``body`` maps a field to ``(field keywords)`` as a dict, or to a plain default."""

    def namespace(spec_maker: Callable[..., Any]) -> dict[str, Any]:
        ns: dict[str, Any] = {"__annotations__": dict(annotations), "__module__": __name__}
        for key, value in body.items():
            ns[key] = spec_maker(**value) if isinstance(value, dict) else value
        return ns

    ours_base, theirs_base = bases if bases else (object, object)
    ours = record(**options)(type(name, (ours_base,), namespace(field)))
    theirs = dataclasses.dataclass(**options)(
        type(name, (theirs_base,), namespace(dataclasses.field))
    )
    return ours, theirs


def fields_of(cls: type) -> list[tuple[Any, ...]]:
    return [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare)
        for f in dataclasses.fields(cls)
    ]


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", call()
    except Exception as error:  # the exception's type is what is compared
        return "raised", type(error)


def same(
    x: Any, y: Any, call: Callable[[Any, Any], Any], x_extra: Any = None, y_extra: Any = None
) -> bool:
    """Whether ``call`` gives the same value, or raises the same type, on both sides."""
    return outcome(lambda: call(x, x_extra)) == outcome(lambda: call(y, y_extra))


ANNOTATIONS = {"a": "int", "b": "str", "c": "tuple[int, ...]", "d": "list[int]"}
BODY: dict[str, Any] = {
    "b": "x",
    "c": {"default": (), "compare": False},
    "d": {"default_factory": list, "repr": False},
}
values = st.one_of(st.integers(-3, 3), st.floats(allow_nan=True), st.text(max_size=3))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v))
@given(a1=values, a2=values, b=st.text(max_size=2), c=st.tuples(st.integers(0, 2)))
def test_a_record_behaves_as_a_dataclass(
    options: dict[str, bool], a1: Any, a2: Any, b: str, c: tuple[int, ...]
) -> None:
    ours, theirs = both("Point", ANNOTATIONS, BODY, options)
    assert dataclasses.is_dataclass(ours)
    assert fields_of(ours) == fields_of(theirs)
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert ours.__match_args__ == theirs.__match_args__  # type: ignore[attr-defined]
    assert ours.__dataclass_params__.frozen == options["frozen"]  # type: ignore[attr-defined]
    assert (ours.__hash__ is None) == (theirs.__hash__ is None)
    assert hasattr(ours, "__slots__") == hasattr(theirs, "__slots__")
    for make in (
        lambda cls: cls(a1),
        lambda cls: cls(a1, b, c),
        lambda cls: cls(a=a1, c=c),
        lambda cls: cls(a1, b=b),
        lambda cls: cls(a=a1, b=b, c=c, d=[1]),  # every field, in order
        lambda cls: cls(d=[1], c=c, b=b, a=a1),
    ):
        x, y = make(ours), make(theirs)
        assert repr(x) == repr(y)
        assert (x.a, x.b, x.c, x.d) == (y.a, y.b, y.c, y.d)
        assert dataclasses.asdict(x) == dataclasses.asdict(y)
        assert dataclasses.astuple(x) == dataclasses.astuple(y)
        other_x, other_y = ours(a2, b, c), theirs(a2, b, c)
        assert (x == other_x) == (y == other_y)
        assert (x == x) == (y == y)  # NaN, and identity first
        assert (x == ours(a1, b, (9,))) == (y == theirs(a1, b, (9,)))
        # d is a list: hashing fails for both where the hash covers it.
        assert same(x, y, lambda v, cls: hash(v) == hash(cls(v.a, v.b, v.c)), ours, theirs)
        assert same(x, y, lambda v, _: setattr(v, "a", 5))
        assert same(x, y, lambda v, _: delattr(v, "b"))
        if hasattr(copy, "replace"):  # Python 3.13
            replace_copy = copy.replace  # type: ignore[attr-defined,unused-ignore]
            assert repr(replace_copy(ours(a1, b, c), b="y")) == repr(
                replace_copy(theirs(a1, b, c), b="y")
            )
        replaced = _record.replace(ours(a1, b, c), b="y")
        assert repr(replaced) == repr(dataclasses.replace(theirs(a1, b, c), b="y"))
        assert repr(dataclasses.replace(ours(a1, b, c), b="y")) == repr(replaced)
        # deepcopy goes through __reduce_ex__ and __getstate__/__setstate__, as pickle does.
        assert repr(copy.deepcopy(ours(a1, b, c))) == repr(copy.deepcopy(theirs(a1, b, c)))


@pytest.mark.parametrize("frozen", [False, True])
@given(a=values, b=st.text(max_size=2), c=st.tuples(st.integers(0, 2)))
def test_made_from_makes_what_the_constructor_makes(
    frozen: bool, a: Any, b: str, c: tuple[int, ...]
) -> None:
    # For records without slots (their fields are the instance's dict).
    ours, _ = both("Point", ANNOTATIONS, BODY, {"frozen": frozen, "eq": True, "slots": False})
    made: Any = _record.made_from(ours, {"a": a, "b": b, "c": c, "d": [1]})
    built = ours(a, b, c, [1])
    assert type(made) is ours
    assert vars(made) == vars(built) and list(vars(made)) == list(vars(built))
    assert repr(made) == repr(built) and (made == built) == (built == built)
    assert same(made, built, lambda v, _: setattr(v, "a", 5))
    assert same(made, built, lambda v, _: hash(v))


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v))
def test_bad_construction_fails_as_for_a_dataclass(options: dict[str, bool]) -> None:
    ours, theirs = both("Point", ANNOTATIONS, BODY, options)
    for call in (
        lambda cls, _: cls(),
        lambda cls, _: cls(1, "b", (), [], 5),
        lambda cls, _: cls(1, a=2),
        lambda cls, _: cls(1, e=2),
        lambda cls, _: cls(a=1, b="x", c=(), e=2),  # as many keywords as fields, one wrong
    ):
        assert same(ours, theirs, call)
        assert outcome(lambda call=call: call(ours, None)) == ("raised", TypeError)
    assert "missing 1 required positional argument: 'a'" in str(outcome_error(ours))
    assert ours(1).d is not ours(1).d  # a factory per instance


def outcome_error(cls: type) -> Exception:
    try:
        cls()
    except TypeError as error:
        return error
    raise AssertionError("no error")


def test_definition_errors_are_those_of_a_dataclass() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        both("Bad", {"a": "int", "b": "int"}, {"a": 1}, {})
    with pytest.raises(ValueError, match="mutable default"):
        record()(type("Bad", (), {"__annotations__": {"a": "list[int]"}, "a": []}))
    with pytest.raises(ValueError, match="both default and default_factory"):
        field(default=1, default_factory=int)
    frozen, _ = both("Frozen", {"a": "int"}, {}, {"frozen": True})
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        record()(type("Thawed", (frozen,), {"__annotations__": {"b": "int"}}))


def test_inheritance_post_init_and_class_variables() -> None:
    def post_init(self: Any) -> None:
        if self.a < 0:
            raise ValueError("negative")
        object.__setattr__(self, "total", self.a + self.b)

    for options in ({"frozen": True}, {"frozen": False}, {"frozen": True, "slots": True}):
        base_ours, base_theirs = both("Base", {"a": "int", "b": "int"}, {"b": 1}, options)
        ours, theirs = both(
            "Child",
            {"b": "int", "c": "int", "total": "int", "kind": "ClassVar[str]"},
            {
                "b": 2,
                "c": 3,
                "total": {"default": 0, "init": False},
                "kind": "child",
                "__post_init__": post_init,
            },
            options,
            bases=(base_ours, base_theirs),
        )
        assert fields_of(ours) == fields_of(theirs)
        assert [f.name for f in dataclasses.fields(ours)] == ["a", "b", "c", "total"]
        assert repr(ours(1)) == repr(theirs(1)) and ours(1).total == 3
        assert ours.kind == "child"  # type: ignore[attr-defined]
        assert same(ours, theirs, lambda cls, _: cls(-1))
        assert outcome(lambda cls=ours: cls(-1)) == ("raised", ValueError)
        assert repr(_record.replace(ours(1), c=7)) == repr(dataclasses.replace(theirs(1), c=7))
        with pytest.raises(ValueError, match="init=False"):
            _record.replace(ours(1), total=1)
        assert isinstance(ours(1), base_ours)
        assert repr(copy.deepcopy(ours(4))) == repr(copy.deepcopy(theirs(4)))


@record(frozen=True, slots=True)
class Pickled:
    unit: ClassVar[str] = "tokens"
    a: int
    b: tuple[int, ...] = field(default=(), compare=False)


def test_a_frozen_record_with_slots_pickles() -> None:
    value = Pickled(1, (2,))
    again = pickle.loads(pickle.dumps(value))
    assert again == value and again.b == (2,) and type(again) is Pickled
    assert [f.name for f in dataclasses.fields(Pickled)] == ["a", "b"]


def test_explicit_methods_are_kept() -> None:
    ours, theirs = both(
        "Named",
        {"a": "int"},
        {"__repr__": lambda self: "named", "__hash__": lambda self: 7},
        {"frozen": True},
    )
    assert repr(ours(1)) == repr(theirs(1)) == "named"
    assert hash(ours(1)) == hash(theirs(1)) == 7


@given(
    values=st.lists(st.one_of(st.integers(), st.text(max_size=2), st.none()), max_size=3),
    mapping=st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
def test_asdict_of_nested_records_is_that_of_dataclasses(
    values: list[Any], mapping: dict[str, int]
) -> None:
    import collections

    pair = collections.namedtuple("pair", "x y")
    inner_ours, inner_theirs = both("Inner", {"v": "list[Any]"}, {}, {"frozen": True})
    outer_ours, outer_theirs = both(
        "Outer",
        {"inner": "Any", "many": "tuple[Any, ...]", "by": "dict[str, Any]", "p": "Any"},
        {},
        {"frozen": True},
    )

    def make(outer: type, inner: type) -> Any:
        return outer(
            inner(list(values)),
            (inner(values[:1]), dict(mapping)),
            {"k": inner([mapping])},
            pair(inner([]), [values]),
        )

    ours = _record.asdict(make(outer_ours, inner_ours))
    assert ours == dataclasses.asdict(make(outer_theirs, inner_theirs))
    assert ours == dataclasses.asdict(make(outer_ours, inner_ours))
    assert type(ours["p"]) is pair
    with pytest.raises(TypeError, match="dataclass instances"):
        _record.asdict({"a": 1})


def test_a_record_that_contains_itself_has_the_repr_of_a_dataclass() -> None:
    ours, theirs = both("Point", ANNOTATIONS, BODY, {})
    x, y = ours(1), theirs(1)
    x.b, y.b = x, y
    assert repr(x) == repr(y) == "Point(a=1, b=..., c=())"


def test_comparisons_attributes_and_annotations_at_the_edges() -> None:
    ours, theirs = both("Point", ANNOTATIONS, BODY, {"frozen": True})
    assert same(ours(1), theirs(1), lambda v, _: v == 1)  # another type: NotImplemented
    # A plain subclass of a frozen dataclass may set attributes that are not fields.
    sub_ours, sub_theirs = type("Sub", (ours,), {}), type("Sub", (theirs,), {})
    assert same(sub_ours(1), sub_theirs(1), lambda v, _: (setattr(v, "extra", 5), v.extra))
    assert same(sub_ours(1), sub_theirs(1), lambda v, _: delattr(v, "extra"))
    # No field compared: every two instances are equal.
    blind_ours, blind_theirs = both(
        "Blind", {"a": "int"}, {"a": {"default": 0, "compare": False}}, {"frozen": True}
    )
    assert same(blind_ours(1), blind_theirs(1), lambda v, cls: v == type(v)(2))
    assert hash(blind_ours(1)) == hash(blind_theirs(2))
    # Annotations as objects, not strings (a module without postponed annotations).
    namespace = {"__annotations__": {"a": int, "k": ClassVar[int]}, "k": 3}
    typed_ours = record()(type("Typed", (), dict(namespace)))
    typed_theirs = dataclasses.dataclass(type("Typed", (), dict(namespace)))
    assert fields_of(typed_ours) == fields_of(typed_theirs)
    assert [f.name for f in dataclasses.fields(typed_ours)] == ["a"]


def test_asdict_hands_a_dataclass_made_elsewhere_to_dataclasses() -> None:
    elsewhere = dataclasses.make_dataclass("Elsewhere", [("x", int)])
    holder, _ = both("Holder", {"item": "Any"}, {}, {"frozen": True})
    assert _record.asdict(holder(elsewhere(3))) == {"item": {"x": 3}}


def test_an_instance_of_a_plain_subclass_is_still_a_dataclass() -> None:
    ours, _ = both("Point", ANNOTATIONS, BODY, {"frozen": True})
    sub = type("Sub", (ours,), {})
    assert [f.name for f in dataclasses.fields(sub(1))] == ["a", "b", "c", "d"]
    assert dataclasses.replace(sub(1), a=2).a == 2


def package_classes(wanted: Callable[[type], bool]) -> list[type]:
    """The ``wanted`` classes defined in the package's modules, from every module that
    imports here (the optional extras' modules are skipped when their extra is missing)."""
    import pkgutil

    import corefscore

    found = []
    for info in pkgutil.walk_packages(corefscore.__path__, "corefscore."):
        if info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except (ImportError, UsageError):  # an extra's module, the extra missing
            continue
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name and wanted(value):
                found.append(value)
    return found


def corefscore_records() -> list[type]:
    """Every record class of the package."""
    return package_classes(lambda cls: "__record_fields__" in cls.__dict__)


def test_corefscore_records_match_their_dataclass_twins() -> None:
    records = corefscore_records()
    # The thirteen of the score command's path, and the analyses', formats' and engines'.
    assert len(records) >= 60
    for cls in records:
        twin = dataclass_twin(cls)
        assert dataclasses.is_dataclass(cls)
        assert fields_of(cls) == fields_of(twin), cls
        ours_params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert repr(ours_params) == repr(twin.__dataclass_params__)  # type: ignore[attr-defined]
        assert cls.__match_args__ == twin.__match_args__, cls  # type: ignore[attr-defined]
        assert (cls.__hash__ is None) == (twin.__hash__ is None), cls


def test_scoring_a_small_file_imports_neither_dataclasses_nor_inspect() -> None:
    # Importing dataclasses (and with it inspect) costs more CPU than the rest of
    # a small run after `import corefscore` (docs/performance.md); the result's
    # JSON form (asdict) does not need it either.
    code = (
        "import sys\n"
        "import corefscore\n"
        "result = corefscore.score({'d': [[(0, 0), (2, 2)]]}, {'d': [[(0, 0)]]})\n"
        "result.to_dict()\n"
        "print(sorted({'dataclasses', 'inspect'} & set(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.splitlines()[-1:] == ["[]"], proc.stderr
