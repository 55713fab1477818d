"""Module attributes imported on first use (corefscore._lazy)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_a_lazy_name_is_imported_on_first_read_then_kept() -> None:
    code = (
        "import sys, corefscore.model as m\n"
        "assert 'corefscore._entity' not in sys.modules\n"
        "e = m.Entity\n"
        "assert 'corefscore._entity' in sys.modules and m.__dict__['Entity'] is e\n"
        "assert e('1', ((0, 0),)).mentions == ((0, 0),)\n"
        "print(e.__module__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "corefscore._entity"


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("corefscore", "score"),
        ("corefscore.contingency", "Segmentation"),
        ("corefscore.metrics.ceaf", "EntityAlignment"),
    ],
)
def test_lazy_names_and_unknown_names(module: str, name: str) -> None:
    import importlib

    mod = importlib.import_module(module)
    assert getattr(mod, name).__name__ == name
    with pytest.raises(AttributeError, match=f"module '{module}' has no attribute 'nope'"):
        mod.nope  # noqa: B018
