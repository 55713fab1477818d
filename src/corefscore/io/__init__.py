"""Readers: each turns one file format into the canonical :class:`~corefscore.model.Corpus`."""

from .conll import read_conll, read_conll_text

__all__ = ["read_conll", "read_conll_text"]
