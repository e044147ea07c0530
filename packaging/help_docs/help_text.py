"""Cineflow's --help texts, read from the built executable and taken apart into what a manual
page and a completion script need. The texts are the only source: the manual page and the
completion are generated from them, so neither can say something the program does not."""

import re
import subprocess
from dataclasses import dataclass, field

# `cineflow X` in the main help names a subcommand (`cineflow.rf/1`, `cineflow --help` and a path
# such as ~/.cache/cineflow do not).
_SUBCOMMAND = re.compile(r"(?<![\w/.~-])cineflow ([a-z][a-z-]*)\b")
# An option entry: two spaces, then an option or an environment variable (a name with '_').
_ENTRY = re.compile(r"^  (-|[A-Z][A-Z0-9]*_[A-Z0-9_]*\b)")
_GAP = re.compile(r"\S  +")
# Choices written into a synopsis or a term: --mode rf|iq, regression[:ORDER] counts as regression.
_CHOICES = re.compile(r"^[a-z0-9-]+(\[[^\]]*\])?(\|[a-z0-9-]+(\[[^\]]*\])?)*$")
_LISTED_CHOICES = re.compile(r"^([a-z0-9-]+(?: \| [a-z0-9-]+)+)\b")
_USAGE_OPTION = re.compile(r"(--[a-z0-9-]+)(?: ([^\s\[\]]+))?")


@dataclass
class Entry:
    """An option (or environment variable) and its description."""
    term: str
    description: list = field(default_factory=list)


@dataclass
class Help:
    """One --help text: the subcommand ("" for cineflow itself), its usage lines (without
    "Usage: ") and its body as ("heading" | "prose" | "verbatim" | "blank", lines) or
    ("entry", Entry). A column-0 line is prose unless it is laid out (spaces between its words,
    or lines indented under it), which is kept as it is."""
    command: str
    usage: list
    body: list


def run_help(executable, command=""):
    args = [executable] + ([command] if command else []) + ["--help"]
    result = subprocess.run(args, capture_output=True, text=True, check=False)
    if result.returncode != 0 or not result.stdout.startswith("Usage: "):
        raise RuntimeError(f"{' '.join(args)} printed no help (exit {result.returncode}): "
                           f"{result.stderr.strip()}")
    return result.stdout


def read_all(executable):
    """cineflow's help and that of every subcommand it names, main first."""
    main = parse("", run_help(executable))
    text = "\n".join(_lines_of(main))
    commands = sorted(set(_SUBCOMMAND.findall(text)))
    return [main] + [parse(c, run_help(executable, c)) for c in commands]


def _lines_of(help_):
    for kind, payload in help_.body:
        if kind == "entry":
            yield payload.term
            yield from payload.description
        else:
            yield from payload


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def _description_column(lines):
    """Where descriptions start: the commonest indentation of lines that continue an entry."""
    counts, in_entry = {}, False
    for line in lines:
        if _ENTRY.match(line):
            in_entry = True
        elif in_entry and line.strip() and _indent(line) > 2:
            counts[_indent(line)] = counts.get(_indent(line), 0) + 1
        else:
            in_entry = False
    return max(counts, key=counts.get) if counts else 0


def _split_entry(line, column):
    """term, first description line ("" when the term has a line of its own)."""
    gap = _GAP.search(line, 2)
    if gap:
        return line[2:gap.start() + 1], line[gap.end():].strip()
    if column and len(line) > column and line[column - 1] == " " and line[column] != " ":
        return line[2:column].strip(), line[column:].strip()
    return line.strip(), ""


def _is_heading(line, following):
    """A title of its own: "Options:", or a short unpunctuated line over a paragraph."""
    if line.endswith(":"):
        return True
    starts_prose = bool(following) and not following[0].isspace()
    return starts_prose and len(line) < 60 and not line.endswith((".", ",", ";"))


def parse(command, text):
    lines = text.rstrip("\n").split("\n")
    usage = []
    while lines and lines[0].strip():  # "Usage: ..." and its continuation lines
        line = lines.pop(0)
        usage.append(line[len("Usage: "):] if line.startswith("Usage: ") else line[7:])
    column = _description_column(lines)
    body = []
    for i, line in enumerate(lines):
        previous = body[-1][0] if body else None
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if not line.strip():
            body.append(("blank", []))
        elif _ENTRY.match(line):
            term, first = _split_entry(line, column)
            body.append(("entry", Entry(term, [first] if first else [])))
        elif previous == "entry" and _indent(line) > 2:
            body[-1][1].description.append(line.strip())
        elif previous == "prose" and line[0] != " " and not _GAP.search(line):
            body[-1][1].append(line)
        elif line[0] != " " and _is_heading(line, following):
            body.append(("heading", [line]))
        elif line[0] != " " and not _GAP.search(line) and (
                not following.startswith(" ") or _ENTRY.match(following)):
            body.append(("prose", [line]))
        elif previous == "verbatim" and line[0] == " ":
            body[-1][1].append(line)
        else:
            body.append(("verbatim", [line]))
    while body and body[-1][0] == "blank":
        body.pop()
    return Help(command, usage, body)


def options(help_):
    """{option: [choices]} of one help text: its entries' options, and those of its usage lines.
    An option without a value has None; one whose value is free-form has []."""
    found = {}
    for line in help_.usage:  # the usage lines may list an option's choices over several lines
        for name, value in _USAGE_OPTION.findall(line):
            choices = _choices(value) if value else None
            known = found.get(name) or []
            found[name] = known + [c for c in choices if c not in known] if choices else choices
    for kind, payload in help_.body:
        if kind != "entry" or not payload.term.startswith("-"):
            continue
        listed = _LISTED_CHOICES.match(payload.description[0]) if payload.description else None
        for part in payload.term.split(", "):
            name, _, value = part.partition(" ")
            choices = (listed.group(1).split(" | ") if listed else _choices(value)) if value else None
            if choices or not found.get(name):  # a usage line's choices outlast a free value
                found[name] = choices
    return found


def _choices(value):
    if not _CHOICES.match(value):
        return []
    return [re.sub(r"\[.*\]", "", choice) for choice in value.split("|")]
