"""The tree keeps its shape: no test folder imports another's tests (only tests/support
is shared), and docs/engineering.md's Layout names every module of the package, no
module that is gone, and every folder of tests/.

The Layout is the code block under "## Layout": one entry a line, a folder's name ending
in "/", its modules and folders indented two spaces under it, each followed by its job;
a line indented to the jobs' column (or deeper) carries on the job above. A package is
its folder's line (its ``__init__.py`` may have a line of its own, or not)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
PACKAGE = ROOT / "scorekeeper"
ENGINEERING = ROOT / "docs" / "engineering.md"
SHARED = "support"
#: Indented this far (the jobs' column is 23), a line carries on the job above.
CARRIES_ON = 16


class Entry(NamedTuple):
    path: str  # as from the project's root: "scorekeeper/store/reads.py", "tests/web/"
    line: int  # in docs/engineering.md


def layout_entries(text: str) -> list[Entry]:
    """Each entry of the Layout's code block, its path built from the folders above it."""
    start = text.index("## Layout")
    lines = text[start:].split("\n")
    opening = next(n for n, line in enumerate(lines) if line.startswith("```"))
    closing = next(n for n in range(opening + 1, len(lines)) if lines[n].startswith("```"))
    first_line = text[:start].count("\n") + 1
    entries, folders = [], []
    for n in range(opening + 1, closing):
        line = lines[n]
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent >= CARRIES_ON:
            continue
        depth = indent // 2
        name = re.split(r"\s{2,}", line.strip())[0]
        del folders[depth:]
        entries.append(Entry("".join(folders) + name, first_line + n))
        if name.endswith("/"):
            folders.append(name)
    return entries


def package_modules() -> set[str]:
    """Every module of the package, as the Layout names it: a package by its folder."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        found.add(relative[: -len("__init__.py")] if path.name == "__init__.py" else relative)
    return found


def test_every_module_of_the_package_is_in_the_layout():
    listed = {entry.path for entry in layout_entries(ENGINEERING.read_text(encoding="utf-8"))}
    missing = sorted(package_modules() - listed)
    assert not missing, "docs/engineering.md's Layout has no line for: " + ", ".join(missing)


def test_the_layout_lists_no_module_that_does_not_exist():
    entries = layout_entries(ENGINEERING.read_text(encoding="utf-8"))
    gone = [
        f"{entry.path} (line {entry.line})"
        for entry in entries
        if entry.path.startswith(("scorekeeper/", "tests/")) and not (ROOT / entry.path).exists()
    ]
    assert not gone, "docs/engineering.md's Layout names what is not there: " + ", ".join(gone)


def test_every_folder_of_tests_is_in_the_layout():
    listed = {entry.path for entry in layout_entries(ENGINEERING.read_text(encoding="utf-8"))}
    folders = {
        f"tests/{folder.name}/"
        for folder in TESTS.iterdir()
        if folder.is_dir() and any(folder.glob("*.py")) | any(folder.glob("*.json"))
    }
    missing = sorted(folders - listed)
    assert not missing, "docs/engineering.md's Layout has no line for: " + ", ".join(missing)


class Import(NamedTuple):
    where: str  # the test file, from tests/
    line: int
    module: str  # as imported


def folders_of(tests: Path) -> set[str]:
    """The folders of tests/ but the shared one, by the name a test would import them by."""
    return {folder.name for folder in tests.iterdir() if folder.is_dir() and folder.name != SHARED}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """The modules a file imports (a relative one with its dots: ``.test_names``), with their lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, "." * node.level + node.module))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, "." * node.level + alias.name) for alias in node.names]
    return found


def foreign_test_imports(tests: Path = TESTS) -> list[Import]:
    """Imports of another folder's tests: by its folder's name, past the file's own
    folder (``..``), or a test module by its bare name that is not in the file's own
    folder (found only through whichever folder pytest put on sys.path first). What
    tests share lives in tests/support."""
    folders = folders_of(tests)
    found = []
    for path in sorted(tests.rglob("*.py")):
        relative = path.relative_to(tests)
        own = relative.parts[0] if len(relative.parts) > 1 else None
        if own == SHARED:
            continue
        for line, module in imported_modules(path):
            first = module.split(".")[0]
            another_folder = first in folders and first != own
            past_its_folder = module.startswith("..")
            elsewhere = first.startswith("test_") and not (path.parent / f"{first}.py").exists()
            if another_folder or past_its_folder or elsewhere:
                found.append(Import(relative.as_posix(), line, module))
    return found


def test_no_test_folder_imports_anothers_tests():
    found = foreign_test_imports()
    assert not found, "only tests/support is shared: " + "; ".join(
        f"tests/{i.where}:{i.line} imports {i.module}" for i in found
    )


def test_an_import_of_another_folders_tests_is_found(tmp_path):
    """The check above can fail: web/ importing rules/' tests by the folder's name and by the
    module's bare name; a module of its own folder, by either name, is its own."""
    for folder in ("rules", "web", SHARED):
        (tmp_path / folder).mkdir()
    (tmp_path / "rules" / "test_core.py").write_text("def helper():\n    return 1\n")
    (tmp_path / SHARED / "web.py").write_text("import json\n")
    (tmp_path / "web" / "test_pages.py").write_text(
        "import json\nfrom support.web import x\nfrom rules.test_core import helper\nfrom test_core import helper\n"
        "from test_forms import y\n"
    )
    (tmp_path / "web" / "test_forms.py").write_text("y = 1\n")
    assert foreign_test_imports(tmp_path) == [
        Import("web/test_pages.py", 3, "rules.test_core"),
        Import("web/test_pages.py", 4, "test_core"),
    ]
