"""Cineflow's manual page: packaging/cineflow.1.in (name, description, files, examples) with the
help texts put in at its markers: @SYNOPSIS@ (every usage line), @HELP@ (cineflow --help: its
headings become sections) and @COMMANDS@ (a subsection per subcommand, its whole --help)."""


def escape(text):
    """roff for plain text: backslashes, minus signs, non-ASCII and a leading control character."""
    out = []
    for c in text:
        if c == "\\":
            out.append("\\e")
        elif c == "-":
            out.append("\\-")  # options must stay ASCII hyphen-minus when copied from the page
        elif ord(c) > 127:
            out.append(f"\\[u{ord(c):04X}]")
        else:
            out.append(c)
    line = "".join(out)
    return "\\&" + line if line.startswith((".", "'")) else line


def _term(term):
    """--option VALUE: the options bold, their values italic."""
    words = []
    for word in term.split(" "):
        font = "B" if word.startswith("-") or "_" in word else "I"  # CINEFLOW_THREADS
        comma = word.endswith(",")
        words.append(f"\\f{font}{escape(word.rstrip(','))}\\fR" + ("," if comma else ""))
    return " ".join(words)


def _section_name(heading):
    return heading.rstrip(":").split(" (")[0].upper()


def body(help_, top_level):
    """The help's body in roff. At the top level its headings are sections (.SH); inside a
    subcommand they are bold paragraphs. "Exit status: ..." of the top level is its own section."""
    out = []
    for kind, payload in help_.body:
        if kind == "blank":
            continue
        if kind == "entry":
            out += [".TP", _term(payload.term)] + [escape(line) for line in payload.description]
        elif kind == "heading" and top_level:
            out.append(f'.SH "{_section_name(payload[0])}"')
        elif kind == "heading":
            out += [".PP", f"\\fB{escape(payload[0])}\\fR"]
        elif kind == "prose" and top_level and payload[0].startswith("Exit status: "):
            out += ['.SH "EXIT STATUS"', escape(payload[0][len("Exit status: "):])]
            out += [escape(line) for line in payload[1:]]
        elif kind == "prose":
            out += [".PP"] + [escape(line) for line in payload]
        else:
            out += [".PP", ".EX"] + [escape(line) for line in payload] + [".EE"]
    return out


def synopsis(helps):
    return [".EX"] + [escape(line) for h in helps for line in h.usage] + [".EE"]


def commands(helps):
    out = []
    for help_ in helps:
        out += [f'.SS "cineflow {help_.command}"'] + body(help_, top_level=False)
    return out


def render(template, helps, version):
    main, subcommands = helps[0], helps[1:]
    parts = {"@SYNOPSIS@": synopsis(helps), "@HELP@": body(main, top_level=True),
             "@COMMANDS@": commands(subcommands)}
    out = []
    for line in template.replace("@VERSION@", version).split("\n"):
        out += parts.get(line.strip(), [line])
    return "\n".join(out).rstrip("\n") + "\n"
