"""The ``evaluate`` module script (``corefscore.py``), shipped so that
``evaluate.load(corefscore.integrations.evaluate.module_path())`` needs no network."""
