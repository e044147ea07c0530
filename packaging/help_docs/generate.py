#!/usr/bin/env python3
"""Writes Cineflow's manual page and bash completion from the built executable's --help texts
(a build step, cmake/CineflowPackaging.cmake), so that neither can drift from the program.

  generate.py CINEFLOW TEMPLATE MAN_PAGE COMPLETION
"""

import subprocess
import sys

import completion
import help_text
import man_page


def main(executable, template_path, man_path, completion_path):
    helps = help_text.read_all(executable)
    version = subprocess.run([executable, "--version"], capture_output=True, text=True,
                             check=True).stdout.split()[-1]
    with open(template_path, encoding="utf-8") as template:
        page = man_page.render(template.read(), helps, version)
    with open(man_path, "w", encoding="utf-8") as out:
        out.write(page)
    with open(completion_path, "w", encoding="utf-8") as out:
        out.write(completion.render(helps, version))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip())
    main(*sys.argv[1:])
