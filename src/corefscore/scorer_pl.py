"""A drop-in for the command line of the CoNLL reference scorer, ``scorer.pl`` v8.01.

``run(argv)`` takes the arguments of ``perl scorer.pl METRIC KEY RESPONSE
[none|DOC]`` and writes what the reference writes, byte for byte, on stdout
and stderr, and returns its exit code: the usage text, ``Invalid metric``,
the per-document listings of ``====> doc:``, ``File doc:`` and ``Entity i:``
lines, the ``Discarded`` and ``Repeated mention`` notices, the statistics
and score lines, the TOTALS blocks, the ``die`` messages (with Perl's
``at lib/CorScorer.pm line N, <F> line M.`` suffix) and its exit codes (0;
1 for its refusal to score more than 10 repeated mentions; for a ``die``,
the ``errno`` it happens to leave: 2 for a missing file, mostly 25 for the
others). The deliberate
differences, listed in ``docs/compatibility.md``: the ``version:`` line names
corefscore, documents are visited in file order (the reference uses Perl's
hash order, random per process), and file names are never run as Perl's
two-argument ``open`` would run them (``cmd|``, ``>file``).

Files are read as the reference reads them (its own parser is reproduced
here, quirks included: the last TAB-separated field, or the whole line when
it has no TAB; blank lines are not tokens; ``(1+2)`` is discarded), and the
numbers are corefscore's metrics with the ``reference`` duplicates policy,
added over documents in the reference's way.
"""

from __future__ import annotations

import errno as errnos
import math
import os
import re
import stat
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, BinaryIO

from ._record import record
from ._version import __version__

if TYPE_CHECKING:
    from .evaluation import Evaluation

#: Metrics of ``scorer.pl all``: master (v8.01) and the LEA-scorer branch (9.0.0-alpha).
ALL_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
ALL_METRICS_LEA = ("muc", "bcub", "ceafe", "lea")

_USAGE_HEAD = b"""
use: scorer.pl <metric> <keys_file> <response_file> [name]

  metric: the metric desired to score the results:
    muc: MUCScorer (Vilain et al, 1995)
    bcub: B-Cubed (Bagga and Baldwin, 1998)
    ceafm: CEAF (Luo et al, 2005) using mention-based similarity
    ceafe: CEAF (Luo et al, 2005) using entity-based similarity
    blanc: BLANC
"""
_USAGE_LEA = b"    lea: LEA (Moosavi and Strube, 2016)\n"
_USAGE_TAIL = b"""    all: uses all the metrics to score

  keys_file: file with expected coreference chains in SemEval format

  response_file: file with output of coreference system (SemEval format)

  name: [optional] the name of the document to score. If name is not
    given, all the documents in the dataset will be scored. If given
    name is "none" then all the documents are scored but only total
    results are shown.

"""

_METRIC = re.compile(rb"(muc|bcub|ceafm|ceafe|blanc|all)", re.IGNORECASE)
_METRIC_LEA = re.compile(rb"(muc|bcub|ebcub|ceafm|ceafe|blanc|lea|all)", re.IGNORECASE)
_BEGIN = re.compile(rb"#\s*begin document (.*?)$")
_END = re.compile(rb"#\s*end document")
_BLANK = re.compile(rb"\s+")
_SPLIT_ANTECEDENT = re.compile(rb"\((\d+\+\d)\)")
_SINGLE = re.compile(rb"\((\d+)\)")
_OPEN = re.compile(rb"\((\d+)")
_CLOSE = re.compile(rb"(\d+)\)")

DASHES = b"-" * 74
REFUSAL = (
    b"Found too many repeated mentions (> 10) in the response, so refusing to score. "
    b"Please fix the output.\n"
)
#: Lines of lib/CorScorer.pm that the reference's messages name.
_LINE_GET_FILE_NAMES = 327
_LINE_GET_COREFERENCE = 201
_LINE_CLOSE_WITHOUT_OPEN = 292
_LINE_EBCUBED = 583
_LINE_BLANC_KEY_CHAINS = 995
_LINE_BLANC_KEY_CHAINS_LEA = 1075
#: PerlIO's buffer: stdout reaches the file in blocks of this size (or at exit).
PERLIO_BUFSIZ = 8192
#: What opening a file leaves in ``$!`` (PerlIO's isatty probe), hence a later die's exit code.
_ENOTTY = errnos.ENOTTY
_PERL_SPACE = b" \t\n\r\f\v"

Span = tuple[int, int]
#: A document as the reference's parser returns it: entities (``None`` for an
#: entity number that was opened but never closed) of (start, end) spans.
Entities = list[list[Span] | None]


@record(frozen=True)
class Options:
    """How the drop-in deviates from plain ``scorer.pl`` v8.01, if at all.

    ``lea_branch``: behave as the LEA-scorer branch (version ``9.0.0-alpha``,
    metric ``lea``, ``all`` = muc, bcub, ceafe, lea). ``argv0``: the path the
    script was run as (``$0``), which Perl's messages derive the module path
    from (``lib/CorScorer.pm`` when it has no ``/``). ``refuse``: ``False``
    keeps scoring after the 11th repeated response mention instead of exiting
    with status 1 (the notices are still printed).
    """

    lea_branch: bool = False
    argv0: bytes | None = None
    refuse: bool = True
    #: The order in which the key's documents are scored, given their ids in file
    #: order (default: file order). For tests that replay a run of the reference,
    #: whose order is Perl's hash order.
    document_order: Callable[[list[bytes]], Sequence[bytes]] | None = None


def module_path(argv0: bytes | None) -> bytes:
    """Where ``scorer.pl`` run as ``argv0`` loads CorScorer.pm from (its BEGIN block)."""
    if argv0 is None:
        return b"lib/CorScorer.pm"
    directory = re.sub(rb"/[^/][^/]*$", b"", argv0)
    if directory == argv0:
        return b"lib/CorScorer.pm"
    return directory + b"/lib/CorScorer.pm"


def version_line(lea_branch: bool = False) -> bytes:
    """The first line: the reference's version, then corefscore's instead of a module path."""
    version = b"9.0.0-alpha" if lea_branch else b"8.01"
    return b"version: " + version + b" corefscore " + __version__.encode() + b"\n"


def usage(lea_branch: bool = False) -> bytes:
    """The reference's usage text (printed on stdout after the version line)."""
    return _USAGE_HEAD + (_USAGE_LEA if lea_branch else b"") + _USAGE_TAIL


def perl_number(value: float) -> bytes:
    """Perl's stringification of a number: integers exactly, floats with ``%.15g``."""
    if isinstance(value, int):
        return b"%d" % value
    return format(value, ".15g").encode()


def perl_percent(fraction: float) -> bytes:
    """``int(x * 10000) / 100`` as Perl prints it: truncated to two decimals."""
    return perl_number(math.trunc(fraction * 10000) / 100)


def show_rpf(
    recall_num: float,
    recall_den: float,
    precision_num: float,
    precision_den: float,
    f1: float | None = None,
) -> bytes:
    """The reference's ``ShowRPF``: one score line and the 74-dash rule."""
    precision = precision_num / precision_den if precision_den else 0
    recall = recall_num / recall_den if recall_den else 0
    if f1 is None:
        f1 = 0
        if recall + precision:
            f1 = 2 * precision * recall / (precision + recall)
    return b"Recall: (%s / %s) %s%%\tPrecision: (%s / %s) %s%%\tF1: %s%%\n%s\n" % (
        perl_number(recall_num),
        perl_number(recall_den),
        perl_percent(recall),
        perl_number(precision_num),
        perl_number(precision_den),
        perl_percent(precision),
        perl_percent(f1),
        DASHES,
    )


class _Die(Exception):
    """Perl's ``die``: the message is on stderr, the exit code is ``$!`` (or 255)."""

    def __init__(self, code: int) -> None:
        self.code = code


class _Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


class _Stdout:
    """Perl's STDOUT: block-buffered (8 KiB blocks) unless it is a terminal.

    Reproducing the blocks keeps the interleaving with stderr (unbuffered)
    the reference's when both go to one file (``2>&1``).
    """

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.pending = bytearray()
        try:
            self.line_buffered = stream.isatty()
        except (AttributeError, ValueError, OSError):
            self.line_buffered = False

    def write(self, data: bytes) -> None:
        self.pending += data
        if self.line_buffered:
            cut = self.pending.rfind(b"\n") + 1
        else:
            cut = len(self.pending) - len(self.pending) % PERLIO_BUFSIZ
        if cut:
            self.stream.write(bytes(self.pending[:cut]))
            self.stream.flush()
            del self.pending[:cut]

    def flush(self) -> None:
        if self.pending:
            self.stream.write(bytes(self.pending))
            self.pending.clear()
        self.stream.flush()


class _Source:
    """What ``open(F, $file)`` reads: a file's bytes, or the standard input.

    Each open of a file reads it from its start; the standard input has one
    position that every open of ``-`` shares, and it cannot seek when it is a pipe.
    """

    def __init__(
        self,
        data: bytes,
        *,
        directory: bool = False,
        shared: bool = False,
        seekable: bool = True,
    ) -> None:
        self.data = data
        self.directory = directory
        self.shared = shared
        self.seekable = seekable
        self.position = 0


class _Handle:
    """The reference's one file handle ``F``, with Perl's ``$.`` and ``$!`` effects.

    ``$.`` counts lines read since the last explicit ``close``; reopening the
    handle does not reset it, so it runs on over the key and response reads
    of every document (and over the metrics of ``all`` with a document id).
    ``$!`` (the exit code of a later ``die``) is left at 0 by a read that
    meets the end of a file, and at EISDIR by the first read of a directory.
    """

    def __init__(self) -> None:
        self.source: _Source | None = None
        self.position = 0
        self.lines = 0
        self.failed = False

    def attach(self, source: _Source) -> None:
        self.source = source
        self.position = 0
        self.failed = False

    def readline(self, scorer: _Scorer) -> bytes | None:
        source = self.source
        if source is None:
            return None
        if source.directory:
            if not self.failed:
                self.failed = True
                scorer.errno = errnos.EISDIR
            return None
        data = source.data
        start = source.position if source.shared else self.position
        if start >= len(data):
            scorer.errno = 0
            return None
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        if source.shared:
            source.position = end
        else:
            self.position = end
        self.lines += 1
        if data[end - 1 : end] != b"\n":
            scorer.errno = 0  # a last line without newline: PerlIO met the end of the file
        return data[start:end]

    def tell(self, scorer: _Scorer) -> int:
        source = self.source
        if source is not None and not source.seekable:
            scorer.errno = errnos.ESPIPE
            return -1
        return source.position if source is not None and source.shared else self.position

    def seek(self, position: int, scorer: _Scorer) -> None:
        source = self.source
        if source is not None and not source.seekable:
            scorer.errno = errnos.ESPIPE
            return
        if position >= 0:
            if source is not None and source.shared:
                source.position = position
            else:
                self.position = position

    def close(self, scorer: _Scorer) -> None:
        if self.failed:
            scorer.errno = errnos.EISDIR
        self.source = None
        self.lines = 0
        self.failed = False


def _chomp(line: bytes) -> bytes:
    return line[:-1] if line.endswith(b"\n") else line


def _perl_split_tab(line: bytes) -> list[bytes]:
    """``split(/\\t/, $line)``: trailing empty fields are dropped."""
    fields = line.split(b"\t")
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _two_argument_open_name(file: bytes) -> bytes:
    """The file name Perl's two-argument ``open(F, $file)`` opens for reading.

    Leading and trailing white space is dropped and a leading ``<`` read-mode
    sign removed; ``-`` is the standard input. Other mode signs (``>``,
    ``|``) are not honoured: the name is then read as a plain path.
    """
    name = file.strip(_PERL_SPACE)
    if name.startswith(b"<"):
        name = name[1:].lstrip(_PERL_SPACE)
    return name


class _Scorer:
    def __init__(
        self, stdout: BinaryIO, stderr: BinaryIO, stdin: BinaryIO | None, options: Options
    ) -> None:
        self.out = _Stdout(stdout)
        self.stderr = stderr
        self.stdin = stdin
        self.options = options
        self.inc = module_path(options.argv0)
        self.verbose = 2
        self.repeated = 0  # $main::repeated_mentions: never reset
        self.errno = 0
        self.handle = _Handle()
        self.files: dict[bytes, _Source] = {}
        self.stdin_source: _Source | None = None
        self.evaluations: dict[str, Evaluation] = {}

    # ---------------------------------------------------------------- Perl's run time

    def print(self, data: bytes) -> None:
        self.out.write(data)

    def die(self, message: bytes, line: int | None = None) -> _Die:
        if not message.endswith(b"\n"):
            message += b" at %s line %d" % (self.inc, line or 0)
            if self.handle.lines:
                message += b", <F> line %d" % self.handle.lines
            message += b".\n"
        self.stderr.write(message)
        self.stderr.flush()
        return _Die(self.errno or 255)

    def open(self, file: bytes, line: int) -> None:
        """``open(F, $file) || die "Can not open $file: $!"``."""
        name = _two_argument_open_name(file)
        source = self._stdin() if name == b"-" else self.files.get(name)
        if source is None:
            try:
                source = self._read(name)
            except OSError as exc:
                self.errno = exc.errno or errnos.EIO
                self.handle.source = None
                raise self.die(
                    b"Can not open %s: %s" % (file, os.strerror(self.errno).encode()), line
                ) from None
            self.files[name] = source
        self.handle.attach(source)
        self.errno = _ENOTTY

    def _read(self, name: bytes) -> _Source:
        fd = os.open(name, os.O_RDONLY)
        try:
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                return _Source(b"", directory=True)
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            return _Source(b"".join(chunks))
        finally:
            os.close(fd)

    def _stdin(self) -> _Source:
        if self.stdin_source is None:
            seekable = False
            start = 0
            data = b""
            if self.stdin is not None:
                try:
                    seekable = self.stdin.seekable()
                    start = self.stdin.tell() if seekable else 0
                except (AttributeError, ValueError, OSError):
                    seekable, start = False, 0
                # Offsets are the file's (tell and seek are absolute), so keep the bytes
                # before the current position as padding.
                data = b"\0" * start + (self.stdin.read() or b"")
            self.stdin_source = _Source(data, shared=True, seekable=seekable)
            self.stdin_source.position = start
        return self.stdin_source

    # ---------------------------------------------------------------- scorer.pl

    def main(self, argv: Sequence[bytes]) -> int:
        lea = self.options.lea_branch
        self.print(version_line(lea))
        if len(argv) < 3:
            self.print(usage(lea))
            return 0
        metric, args = argv[0], list(argv[1:])
        if not (_METRIC_LEA if lea else _METRIC).match(metric):
            self.print(b"Invalid metric\n")
            return 0
        if metric == b"all":
            for name in ALL_METRICS_LEA if lea else ALL_METRICS:
                self.print(b"\nMETRIC %s:\n" % name.encode())
                self.score(name.encode(), args)
        else:
            self.score(metric, args)
        return 0

    def score(self, metric: bytes, args: list[bytes]) -> None:
        """``CorScorer::Score`` (and ``ScoreBLANC``)."""
        key_file, response_file = args[0], args[1]
        name = args[2] if len(args) > 2 else None
        blanc = metric.lower() == b"blanc"
        identification = [0, 0, 0, 0]  # recall num, recall den, precision num, precision den
        totals: list[float] = [0] * (8 if blanc else 4)
        if name is not None and name != b"none":
            if self.verbose:
                self.print(name + b":\n")
            keys = self.get_coreference(key_file, name, None)
            response = self.get_coreference(response_file, name, None)
            self.add(totals, self.evaluate(metric, name, keys, response, identification))
        else:
            key_names = self.get_file_names(key_file)
            response_names = self.get_file_names(response_file)
            if name == b"none":
                self.verbose = 0
            documents: Sequence[bytes] = list(key_names)
            if self.options.document_order is not None:
                documents = self.options.document_order(list(key_names))
            for doc in documents:
                keys = self.get_coreference(key_file, doc, key_names[doc])
                response = self.get_coreference(response_file, doc, response_names.get(doc))
                if self.verbose:
                    # ScoreBLANC prints the command-line argument here, not the document.
                    self.print(((name or b"") if blanc else doc) + b":\n")
                self.add(totals, self.evaluate(metric, doc, keys, response, identification))
        if self.verbose or name == b"none":
            self.print(b"\n====== TOTALS =======\n")
            self.print(b"Identification of Mentions: " + show_rpf(*identification))
            if blanc:
                self.print_blanc(totals)
            else:
                self.print(b"Coreference: " + show_rpf(*totals))

    @staticmethod
    def add(totals: list[float], values: Sequence[float]) -> None:
        for i, value in enumerate(values):
            totals[i] += value

    def print_blanc(self, totals: list[float]) -> None:
        nra, dra, npa, dpa, nrr, drr, npr, dpr = totals
        self.print(b"\nCoreference:\n")
        self.print(b"Coreference links: " + show_rpf(nra, dra, npa, dpa))
        self.print(b"Non-coreference links: " + show_rpf(nrr, drr, npr, dpr))
        ra = nra / dra if dra else -1
        rr = nrr / drr if drr else -1
        pa = npa / dpa if dpa else 0
        pr = npr / dpr if dpr else 0
        recall = (ra + rr) / 2
        precision = (pa + pr) / 2
        fa = 2 * pa * ra / (pa + ra) if pa + ra else 0
        fr = 2 * pr * rr / (pr + rr) if pr + rr else 0
        f1 = (fa + fr) / 2
        if ra == -1 and rr == -1:
            recall = precision = f1 = 0
        elif ra == -1:
            recall, precision, f1 = rr, pr, fr
        elif rr == -1:
            recall, precision, f1 = ra, pa, fa
        self.print(b"BLANC: " + show_rpf(recall, 1, precision, 1, f1))

    def get_file_names(self, file: bytes) -> dict[bytes, int]:
        """``GetFileNames``: each document's offset (the last of a repeated id), in file order."""
        self.open(file, _LINE_GET_FILE_NAMES)
        names: dict[bytes, int] = {}
        last = 0
        while (line := self.handle.readline(self)) is not None:
            line = _chomp(line)
            if line.endswith(b"\r"):
                line = line[:-1]
            match = _BEGIN.match(line)
            if match:
                names[match.group(1)] = last
            last = self.handle.tell(self)
        self.handle.close(self)
        return names

    def get_coreference(self, file: bytes, name: bytes, position: int | None) -> Entities | None:
        """``GetCoreference`` of one named document (``None``: not in the file)."""
        self.open(file, _LINE_GET_COREFERENCE)
        handle = self.handle
        if position:
            handle.seek(position, self)
        found = False
        while (line := handle.readline(self)) is not None:
            line = _chomp(line)
            if line.endswith(b"\r"):
                line = line[:-1]
            match = _BEGIN.match(line)
            if match and match.group(1) == name:
                found = True
                break
        verbose = self.verbose > 1
        shown = name if found else b""
        if verbose:
            self.print(b"====> %s:\n" % shown)
        entities: Entities = []
        half: dict[int, list[int]] = {}
        index: dict[bytes, int] = {}
        number = 0

        def entity_of(label: bytes) -> int:
            if label not in index:
                index[label] = len(index)
            return index[label]

        while (line := handle.readline(self)) is not None:
            line = _chomp(line)
            if _BLANK.fullmatch(line):
                line = b""
            if not line:
                continue
            if _END.search(line):
                if any(half.values()):
                    raise self.die(b"Error: some mentions in the document do not close\n")
                break
            fields = _perl_split_tab(line)
            info = fields[-1] if fields else b""
            if info != b"_":
                while match := _SPLIT_ANTECEDENT.search(info):
                    info = info[: match.start()] + info[match.end() :]
                    if verbose:
                        self.print(b"Discarded (%s)\n" % match.group(1))
                while match := _SINGLE.search(info):
                    info = info[: match.start()] + info[match.end() :]
                    self._push(entities, entity_of(match.group(1)), (number, number))
                while match := _OPEN.search(info):
                    info = info[: match.start()] + info[match.end() :]
                    half.setdefault(entity_of(match.group(1)), []).append(number)
                while match := _CLOSE.search(info):
                    info = info[: match.start()] + info[match.end() :]
                    label = match.group(1)
                    entity = entity_of(label)
                    opened = half.get(entity)
                    if not opened:
                        raise self.die(
                            b"Detected the end of a mention [%s](%d) without begin (?,%d)"
                            % (label, entity, number),
                            _LINE_CLOSE_WITHOUT_OPEN,
                        )
                    self._push(entities, entity, (opened.pop(), number))
            number += 1
        if verbose:
            self.print(b"File %s:\n" % shown)
            for e, mentions in enumerate(entities):
                listed = b"".join(b" (%d,%d)" % span for span in mentions or ())
                self.print(b"Entity %d:%s\n" % (e, listed))
        if not found:
            # $coref{$name}: an empty document when the name is '' (it was stored
            # under the undefined $fName).
            return entities if name == b"" else None
        return entities

    @staticmethod
    def _push(entities: Entities, entity: int, span: Span) -> None:
        while len(entities) <= entity:
            entities.append(None)
        mentions = entities[entity]
        if mentions is None:
            entities[entity] = mentions = []
        mentions.append(span)

    def identify_mentions(
        self, keys: Entities | None, response: Entities | None, totals: list[int]
    ) -> None:
        """``IdentifMentions``: its notices, statistics and mention-identification counts."""
        ids: dict[Span, int] = {}
        count = 0
        for entity in keys or ():
            for span in entity or ():
                if span in ids:
                    self.print(
                        b"Repeated mention in the key: %d, %d %d%d\n" % (*span, ids[span], count)
                    )
                ids[span] = count
                count += 1
        mapped: dict[Span, int] = {}
        assigned: set[int] = set()
        exact = 0
        kept: list[list[Span]] = []
        for entity in response or ():
            survivors: list[Span] = []
            for span in entity or ():
                if span in mapped:
                    self.print(
                        b"Repeated mention in the response: %d, %d %d%d\n"
                        % (*span, mapped[span], ids[span])
                    )
                    self.repeated += 1
                    if self.repeated > 10 and self.options.refuse:
                        self.stderr.write(REFUSAL)
                        self.stderr.flush()
                        raise _Exit(1)
                    continue
                survivors.append(span)
                identity = ids.get(span)
                if identity is not None and identity not in assigned:
                    assigned.add(identity)
                    mapped[span] = identity
                    exact += 1
            if survivors:
                kept.append(survivors)
        for survivors in kept:
            for span in survivors:
                if span not in mapped:
                    mapped[span] = count
                    count += 1
        if self.verbose:
            self.print(
                b"Total key mentions: %d\nTotal response mentions: %d\n"
                b"Strictly correct identified mentions: %d\n"
                b"Partially correct identified mentions: 0\nNo identified: %d\nInvented: %d\n"
                % (len(ids), len(mapped), exact, len(ids) - exact, count - len(ids))
            )
        totals[0] += exact
        totals[1] += len(ids)
        totals[2] += exact
        totals[3] += len(mapped)

    def evaluate(
        self,
        metric: bytes,
        doc: bytes,
        keys: Entities | None,
        response: Entities | None,
        identification: list[int],
    ) -> tuple[float, ...]:
        """``IdentifMentions`` then ``Eval`` (or ``BLANC_Internal``) of one document."""
        self.identify_mentions(keys, response, identification)
        name = metric.lower()
        if name != b"blanc":
            known = (b"muc", b"bcub", b"ceafm", b"ceafe")
            if self.options.lea_branch and name == b"ebcub":
                raise self.die(b"Undefined subroutine &CorScorer::EBCUBED called", _LINE_EBCUBED)
            if name not in known and not (self.options.lea_branch and name == b"lea"):
                raise self.die(b"Metric %s not implemented yet\n" % name)
        elif keys is not None and _has_gap(keys):
            # BLANC_Internal dereferences every key chain; an entity number that was
            # opened but never closed (at the end of a file without '#end document')
            # leaves an undefined chain before the last one.
            line = _LINE_BLANC_KEY_CHAINS_LEA if self.options.lea_branch else _LINE_BLANC_KEY_CHAINS
            raise self.die(b"Can't use an undefined value as an ARRAY reference", line)
        stats = self.statistics(name.decode(), doc, keys, response)
        if self.verbose and name != b"blanc":
            self.print(show_rpf(*stats))
        return stats

    def statistics(
        self, metric: str, doc: bytes, keys: Entities | None, response: Entities | None
    ) -> tuple[float, ...]:
        """One document's numerators and denominators, by corefscore's metrics."""
        from .engines.objects import score_pair
        from .evaluation import Evaluation
        from .model import Document

        evaluation = self.evaluations.get(metric)
        if evaluation is None:
            evaluation = Evaluation.create(metrics=[metric], duplicates="reference")
            self.evaluations[metric] = evaluation
        doc_id = os.fsdecode(doc)

        def document(entities: Entities | None) -> Document:
            return Document(doc_id=doc_id, entities=tuple(tuple(e) for e in entities or () if e))

        return score_pair(document(keys), document(response), evaluation, [])[metric]


def _has_gap(entities: Entities) -> bool:
    """Whether an empty entity comes before a non-empty one."""
    filled = [bool(mentions) for mentions in entities]
    return False in filled[: len(filled) - filled[::-1].index(True)] if True in filled else False


def run(
    argv: Sequence[bytes | str],
    *,
    stdout: BinaryIO,
    stderr: BinaryIO,
    stdin: BinaryIO | None = None,
    options: Options | None = None,
) -> int:
    """Run ``scorer.pl`` with ``argv`` (the arguments after the script name).

    Writes to the binary streams ``stdout`` and ``stderr`` what the reference
    writes, and returns its exit code.
    """
    scorer = _Scorer(stdout, stderr, stdin, options or Options())
    args = [os.fsencode(a) if isinstance(a, str) else a for a in argv]
    try:
        return scorer.main(args)
    except _Die as died:
        return died.code
    except _Exit as exited:
        return exited.code
    finally:
        scorer.out.flush()


__all__ = ["ALL_METRICS", "ALL_METRICS_LEA", "Options", "module_path", "run", "show_rpf"]
