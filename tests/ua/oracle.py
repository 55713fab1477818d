"""The Universal Anaphora scorer as an optional test oracle.

Nothing of it is vendored here. The oracle is an existing checkout of
https://github.com/juntaoy/universal-anaphora-scorer (the LREC 2022 scorer,
"v1") run with a Python that has numpy and scipy; ``oracle_driver.py`` (our
code) runs in that Python as a subprocess. The UA scorer 2.0 engine ("v2",
bundled in ufal/corefud-scorer) is used when that checkout is there too.

Where they are found:

* ``COREFSCORE_UA_SCORER``: the v1 checkout (the folder with ``ua-scorer.py``);
* ``COREFSCORE_UA_PYTHON``: the Python to run it with (default: the Python
  running the tests);
* ``COREFSCORE_COREFUD_SCORER``: a ufal/corefud-scorer checkout, for v2;
* with none set, the research copies ``/work/research/ua/src`` (with
  ``/work/research/ua/venv/bin/python``) and ``/work/research/corefud/corefud-scorer``;
* otherwise every oracle test skips, saying how to install it (``INSTALL``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).with_name("oracle_driver.py")
FALLBACK_SCORER = Path("/work/research/ua/src")
FALLBACK_PYTHON = Path("/work/research/ua/venv/bin/python")
FALLBACK_COREFUD = Path("/work/research/corefud/corefud-scorer")
INSTALL = (
    "the Universal Anaphora scorer is not installed: git clone "
    "https://github.com/juntaoy/universal-anaphora-scorer; pip install numpy scipy (into "
    "some Python); set COREFSCORE_UA_SCORER=<the checkout> and COREFSCORE_UA_PYTHON=<that Python>"
)


@dataclass(frozen=True)
class Job:
    """One scoring by the UA scorer, with its command line's options."""

    key: str
    response: str
    engine: str = "v1"
    reader: str = "ua"
    keep_singletons: bool = True
    keep_split: bool = True
    keep_bridging: bool = False
    keep_non_referring: bool = False
    deixis: bool = False
    min: bool = False
    only_split: bool = False
    importance: float = 1.0


def location() -> tuple[Path, str, Path | None] | None:
    """(v1 checkout, Python, v2 checkout or None), or None when there is no oracle."""
    scorer = os.environ.get("COREFSCORE_UA_SCORER")
    python = os.environ.get("COREFSCORE_UA_PYTHON")
    if scorer is None:
        if not (FALLBACK_SCORER / "ua-scorer.py").exists() or not FALLBACK_PYTHON.exists():
            return None
        scorer, python = str(FALLBACK_SCORER), python or str(FALLBACK_PYTHON)
    if not (Path(scorer) / "coval").is_dir():
        return None
    corefud = Path(os.environ.get("COREFSCORE_COREFUD_SCORER", FALLBACK_COREFUD))
    v2 = corefud if (corefud / "scorer" / "ua").is_dir() else None
    return Path(scorer), python or sys.executable, v2


def run(jobs: list[Job]) -> list[dict[str, Any]]:
    """The oracle's results, one per job (v2 jobs need the corefud-scorer checkout)."""
    found = location()
    assert found is not None, INSTALL
    scorer, python, v2 = found
    command = [python, str(DRIVER), str(scorer)] + ([str(v2)] if v2 else [])
    done = subprocess.run(
        command,
        input=json.dumps({"jobs": [asdict(j) for j in jobs]}),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the UA oracle failed: {done.stderr.strip()[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def has_v2() -> bool:
    found = location()
    return found is not None and found[2] is not None
