#!/usr/bin/env python3
"""Builds Cineflow's manual (docs/, mkdocs.yml) into a static site and checks every link in it and
in README.md: the CTest test `docs` and `make docs`.

    build_docs.py BUILD_DIR [OUT_DIR]

The pages are docs/*.md as written, plus three generated ones: the command-line reference from
the built executable's --help texts (packaging/help_docs, the same texts the manual page is made
from), the Python API reference from the built module's docstrings (tools/docs/python_api.py) and
the datasets page from data/README.md. MkDocs (Debian's `mkdocs`) builds them with --strict, so a
link to a page that does not exist fails; then every Markdown link of the pages and of README.md
is checked here, anchors included (MkDocs 1.4 does not check those): a link to a missing file, a
heading that is not there, or an option the reference no longer has fails the build, naming the
page and the link. The site lands in OUT_DIR (default BUILD_DIR/docs-site).
"""

import functools
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging" / "help_docs"))

import help_text  # noqa: E402  (packaging/help_docs)
import markdown_reference  # noqa: E402

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#([\w-]+)\})?\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(text):
    """Python-Markdown's toc slugify (what MkDocs uses): lower case, markup and punctuation out,
    spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_]", "", text).replace("\\", "")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def outside_code(text):
    """The lines of `text` that are not inside fenced code blocks, with inline code removed."""
    inside = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, re.sub(r"`[^`]*`", "", line)


@functools.lru_cache(maxsize=None)
def anchors(path):
    """The anchors of the headings of `path` (read once per build)."""
    found = set()
    inside = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line):
            inside = not inside
            continue
        match = None if inside else HEADING.match(line)
        if match:
            found.add(match.group(3) or slug(match.group(2)))
    return found


def check_links(page, text, errors, known_files):
    for number, line in outside_code(text):
        for target in LINK.findall(line) + IMAGE.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("//"):
                continue  # an address outside the project: not checked offline
            file_part, _, fragment = target.partition("#")
            resolved = (page.parent / file_part).resolve() if file_part else page.resolve()
            if resolved not in known_files and not resolved.exists():
                errors.append(f"{page}:{number}: link to a missing file: {target}")
                continue
            if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
                errors.append(f"{page}:{number}: no heading #{fragment} in {file_part or page.name}")


def generate(stage, build):
    app = build / "app" / "cineflow"
    helps = help_text.read_all(str(app))
    version = subprocess.run([str(app), "--version"], capture_output=True, text=True,
                             check=True).stdout.split()[-1]
    (stage / "docs" / "command-line-reference.md").write_text(markdown_reference.render(helps, version),
                                                               encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(build / "python"), PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([sys.executable, str(ROOT / "tools" / "docs" / "python_api.py"),
                    str(stage / "docs" / "python-api.md")], check=True, env=env)
    datasets = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    # data/README.md's own links are relative to data/; on the site they are relative to docs/.
    datasets = re.sub(r"\]\((?![a-z]+:|#|/)([^)]+)\)", r"](../data/\1)", datasets)
    (stage / "docs" / "datasets.md").write_text(datasets, encoding="utf-8")


def main(build, out):
    if shutil.which("mkdocs") is None:
        sys.exit("build_docs: mkdocs is not installed (packaging/install-deps.sh installs it)")
    with tempfile.TemporaryDirectory(prefix="cineflow-docs.") as tmp:
        stage = pathlib.Path(tmp)
        shutil.copytree(ROOT / "docs", stage / "docs")
        shutil.copy(ROOT / "mkdocs.yml", stage / "mkdocs.yml")
        (stage / "data").symlink_to(ROOT / "data")
        generate(stage, build)
        errors = []
        pages = sorted((stage / "docs").glob("*.md"))
        known = {p.resolve() for p in pages}
        for page in pages:
            check_links(page, page.read_text(encoding="utf-8"), errors, known)
        readme = ROOT / "README.md"
        # README.md links into docs/; the generated pages exist only in the stage.
        readme_text = readme.read_text(encoding="utf-8")
        for generated in ("command-line-reference.md", "python-api.md", "datasets.md"):
            if f"docs/{generated}" in readme_text:
                errors.append(f"{readme}: link the generated page {generated} from the manual, "
                              "not from the README (it exists only in the built site)")
        check_links(readme, readme_text, errors, known)
        result = subprocess.run(["mkdocs", "build", "--strict", "--clean", "--quiet",
                                 "--config-file", str(stage / "mkdocs.yml"),
                                 "--site-dir", str(out)], capture_output=True, text=True)
        if result.returncode != 0:
            errors.append("mkdocs build --strict failed:\n" + (result.stderr or result.stdout))
        if errors:
            print("\n".join(str(e).replace(str(stage) + "/", "") for e in errors), file=sys.stderr)
            sys.exit(1)
    print(f"manual: {len(pages)} pages, every link checked, site in {out}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip())
    build_dir = pathlib.Path(sys.argv[1]).resolve()
    main(build_dir, pathlib.Path(sys.argv[2]).resolve() if len(sys.argv) == 3 else
         build_dir / "docs-site")
