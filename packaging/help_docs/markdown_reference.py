"""The manual's command-line reference (docs: "Command-line reference") from the same --help texts
as the manual page: a section per command, its usage lines, its headings, its options as a list
with their descriptions, its examples as they are laid out."""

import re


def _code(text):
    """Inline code that may itself hold backticks."""
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _prose(lines):
    """Help prose as Markdown text: characters Markdown would read as markup are escaped."""
    text = " ".join(line.strip() for line in lines)
    return re.sub(r"([\\*_<>\[\]#|])", r"\\\1", text)


def anchor(command):
    return "cineflow" if not command else f"cineflow-{command}"


def _render_one(help_):
    title = "cineflow" if not help_.command else f"cineflow {help_.command}"
    out = [f"## {title} {{#{anchor(help_.command)}}}", "", "```text"]
    out += [f"{'Usage:' if i == 0 else '      '} {line}" for i, line in enumerate(help_.usage)]
    out += ["```", ""]
    verbatim = []

    def flush():
        if verbatim:
            out.extend(["```text", *verbatim, "```", ""])
            verbatim.clear()

    for kind, payload in help_.body:
        if kind == "verbatim":
            verbatim.extend(payload)
            continue
        if kind == "blank":
            continue
        flush()
        if kind == "heading":
            out += [f"**{_prose(payload)}**", ""]
        elif kind == "prose":
            out += [_prose(payload), ""]
        elif kind == "entry":
            description = _prose(payload.description) if payload.description else ""
            out += [f"- {_code(payload.term)}" + (f": {description}" if description else ""), ""]
    flush()
    return out


def render(helps, version):
    """The whole reference page, main command first, then every subcommand it names."""
    out = ["# Command-line reference", "",
           f"Generated from the `--help` texts of cineflow {version} (the manual page, `man cineflow`, "
           "comes from the same texts). Each command's own `--help` prints the same.", ""]
    commands = [h.command for h in helps if h.command]
    out += ["Commands: " + ", ".join(f"[{'cineflow ' + c}](#{anchor(c)})" for c in commands), ""]
    for help_ in helps:
        out += _render_one(help_)
    return "\n".join(out).rstrip() + "\n"
