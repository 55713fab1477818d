"""Without their frameworks, the integrations say what to install (runs without torch/evaluate)."""

from __future__ import annotations

import subprocess
import sys

import pytest

_PROBE = """
import sys
for blocked in {blocked!r}:
    sys.modules[blocked] = None  # import fails as if not installed
from corefscore import UsageError
try:
    import {module}
except UsageError as error:
    print("UsageError:", error)
"""


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("corefscore.integrations.torchmetrics", ("torchmetrics",), "torch"),
        ("corefscore.integrations.torchmetrics", ("torch", "torchmetrics"), "torch"),
        ("corefscore.integrations.evaluate", ("evaluate",), "evaluate"),
    ],
)
def test_usage_error_names_the_extra(module: str, blocked: tuple[str, ...], extra: str) -> None:
    code = _PROBE.format(blocked=blocked, module=module)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("UsageError: corefscore.integrations."), out.stdout + out.stderr
    assert f"python -m pip install 'corefscore[{extra}]'" in out.stdout
    assert blocked[0] in out.stdout


def test_no_framework_is_imported_by_corefscore_or_e2e() -> None:
    code = (
        "import sys, corefscore, corefscore.integrations, corefscore.integrations.e2e; "
        "print(sorted(m for m in ('torch', 'torchmetrics', 'evaluate', 'datasets') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
