"""Cineflow's bash completion, from the same help texts as the manual page: the subcommands after
`cineflow`, each command's options after a '-', an option's choices where its help lists them
(--mode rf|iq|..., --backend KIND  auto | cpu | cuda), file names for every other value and for
positional arguments (complete -o default)."""

from help_text import options


def _quoted_words(words):
    return '"' + " ".join(words) + '"'


def render(helps, version):
    names = [h.command for h in helps[1:]]
    lines = [
        f"# bash completion for cineflow {version}, generated from its --help texts at build time",
        "# (packaging/help_docs): what `cineflow [COMMAND] --help` lists, nothing else.",
        "_cineflow() {",
        '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command=',
        "  if ((COMP_CWORD > 1)); then",
        "    case ${COMP_WORDS[1]} in",
        f"      {'|'.join(names)}) command=${{COMP_WORDS[1]}} ;;",
        "    esac",
        "  fi",
        "  COMPREPLY=()",
        '  case "$command:$prev" in',
    ]
    for help_ in helps:
        for name, choices in sorted(options(help_).items()):
            if choices:
                lines.append(f'    "{help_.command}:{name}") COMPREPLY=($(compgen -W '
                             f'{_quoted_words(choices)} -- "$cur")); return ;;')
        free = [f'"{help_.command}:{name}"' for name, choices in sorted(options(help_).items())
                if choices == []]
        if free:
            lines.append(f"    {'|'.join(free)}) return ;;  # a file name or a number")
    lines += ["  esac", "  local words", '  case "$command" in']
    for help_ in helps[1:] + helps[:1]:  # cineflow's own last: its pattern is *
        words = sorted(set(options(help_)) | {"--help"})  # every command prints its help
        lines.append(f"    {help_.command or '*'}) words={_quoted_words(words)} ;;")
    lines += [
        "  esac",
        '  if [[ $cur == -* ]]; then',
        '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
        '  elif ((COMP_CWORD == 1)); then',
        f'    COMPREPLY=($(compgen -W {_quoted_words(names)} -- "$cur"))',
        "  fi",
        "}",
        "complete -o default -F _cineflow cineflow",
    ]
    return "\n".join(lines) + "\n"
