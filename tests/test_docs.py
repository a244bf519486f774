"""The documentation stands alone: every relative link in a Markdown file leads to a
file or folder inside the repository, and nothing points at texts outside it."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Folders that are not the project's own documents.
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "build",
    "dist",
}
# Links that leave the repository on purpose.
EXTERNAL = re.compile(r"^(https?|mailto|tg):", re.IGNORECASE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`)(?:(?!\n[ \t]*\n).)*?(?<!`)\1(?!`)", re.DOTALL)
# [text](target) and ![alt](target), the target optionally in <...> and followed by a title.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]+)[^)]*\)")
# [label]: target
REFERENCE = re.compile(r"^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)", re.MULTILINE)
HTML_LINK = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)

# Texts that live outside the repository and must not be referred to.
FORBIDDEN = ("shared/rules.md", "../shared/")
CHECKED = ["README.md", "docs", "bot", "engine", "deploy"]


def markdown_files(root: Path) -> list[Path]:
    """Every *.md file under `root`, skipping tool and virtualenv folders."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        found.extend(Path(folder, name) for name in sorted(files) if name.endswith(".md"))
    return found


def link_targets(text: str) -> list[str]:
    """The targets of the links in a Markdown text (code blocks and code spans left out)."""
    text = CODE_SPAN.sub("", FENCE.sub("", text))
    targets = []
    for pattern in (INLINE_LINK, REFERENCE, HTML_LINK):
        for match in pattern.finditer(text):
            target = match.group(1)
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            targets.append(target.strip())
    return targets


def broken_links(md_file: Path, root: Path) -> list[str]:
    """The links of `md_file` that do not lead to a file or folder inside `root`."""
    root = root.resolve()
    broken = []
    for target in link_targets(md_file.read_text(encoding="utf-8")):
        if not target or target.startswith("#") or EXTERNAL.match(target):
            continue
        if SCHEME.match(target):
            broken.append(f"{target} (not a repository path)")
            continue
        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        base = root if path.startswith("/") else md_file.parent
        resolved = (base / path.lstrip("/")).resolve()
        if not resolved.is_relative_to(root):
            broken.append(f"{target} (outside the repository)")
        elif not resolved.exists():
            broken.append(f"{target} (no such file)")
    return broken


def files_mentioning(root: Path, names: list[str], needles: tuple[str, ...]) -> list[str]:
    """The files among `names` (files or folders under `root`) that contain a needle."""
    hits = []
    for name in names:
        start = root / name
        paths = [start] if start.is_file() else sorted(start.rglob("*"))
        for path in paths:
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            data = path.read_bytes().lower()
            hits.extend(
                f"{path.relative_to(root)}: {needle}"
                for needle in needles
                if needle.encode() in data
            )
    return hits


# -- the repository -----------------------------------------------------------


def test_the_repository_has_its_documents() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in markdown_files(ROOT)}
    assert {"README.md", "docs/rules.md", "deploy/README.md"} <= names


@pytest.mark.parametrize(
    "md_file", markdown_files(ROOT), ids=lambda path: path.relative_to(ROOT).as_posix()
)
def test_every_relative_link_resolves_inside_the_repository(md_file: Path) -> None:
    assert broken_links(md_file, ROOT) == []


def test_nothing_refers_to_texts_outside_the_repository() -> None:
    assert files_mentioning(ROOT, CHECKED, FORBIDDEN) == []


# -- the checks themselves can fail -------------------------------------------


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A small repository inside a folder that also holds a file outside it."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "RULES.md").write_text("# outside\n", encoding="utf-8")
    root = tmp_path / "repo"
    (root / "docs" / "pictures").mkdir(parents=True)
    (root / "docs" / "rules.md").write_text("# Rules\n", encoding="utf-8")
    (root / "docs" / "pictures" / "board.jpg").write_bytes(b"\xff\xd8")
    return root


def write(root: Path, text: str, name: str = "README.md") -> Path:
    path = root / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "text",
    [
        "See [the rules](docs/rules.md).",
        "See [the rules](docs/rules.md#scoring) and [above](#top).",
        "![board](docs/pictures/board.jpg)",
        '[rules](<docs/rules.md> "the rules")',
        "[docs](docs/) and [the root](/README.md)",
        "[web](https://example.org/x.md), [mail](mailto:a@example.org), [bot](tg://resolve)",
        "[rules]: docs/rules.md",
        "```\n[not a link](missing.md)\n```\nand `[nor this](missing.md)`",
    ],
)
def test_good_links_pass(repo: Path, text: str) -> None:
    assert broken_links(write(repo, text), repo) == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("See [the rules](docs/missing.md).", "no such file"),
        ("See [the rules](docs/missing.md#scoring).", "no such file"),
        ("![board](docs/pictures/nothing.jpg)", "no such file"),
        ("[the contract](../shared/RULES.md)", "outside the repository"),
        ("[up](..)", "outside the repository"),
        ("[rules]: ../shared/RULES.md", "outside the repository"),
        ('<img src="docs/pictures/gone.png">', "no such file"),
        ("[a file](file:///etc/passwd)", "not a repository path"),
    ],
)
def test_bad_links_are_found(repo: Path, text: str, reason: str) -> None:
    broken = broken_links(write(repo, text), repo)
    assert len(broken) == 1
    assert reason in broken[0]


def test_a_link_from_a_subfolder_resolves_from_that_folder(repo: Path) -> None:
    good = write(repo, "[rules](rules.md) [pictures](pictures/board.jpg)", "docs/index.md")
    assert broken_links(good, repo) == []
    bad = write(repo, "[rules](docs/rules.md)", "docs/index.md")
    assert broken_links(bad, repo) == ["docs/rules.md (no such file)"]
    outside = write(repo, "[rules](../../shared/RULES.md)", "docs/index.md")
    assert broken_links(outside, repo) == ["../../shared/RULES.md (outside the repository)"]


def test_markdown_files_skips_tool_folders(repo: Path) -> None:
    (repo / ".venv" / "lib").mkdir(parents=True)
    (repo / ".venv" / "lib" / "README.md").write_text("[x](nowhere.md)", encoding="utf-8")
    write(repo, "# Hi")
    names = {path.relative_to(repo).as_posix() for path in markdown_files(repo)}
    assert names == {"README.md", "docs/rules.md"}


@pytest.mark.parametrize(
    "text", ["the contract is ../shared/RULES.md", "see `Shared/Rules.md`", "../shared/notes"]
)
def test_a_mention_of_the_outside_rules_is_found(repo: Path, text: str) -> None:
    (repo / "engine").mkdir()
    (repo / "engine" / "record.py").write_text(f'"""{text}"""\n', encoding="utf-8")
    hits = files_mentioning(repo, ["README.md", "docs", "engine"], FORBIDDEN)
    assert hits and all(hit.startswith("engine/record.py: ") for hit in hits)


def test_no_mention_no_hit(repo: Path) -> None:
    write(repo, "The rules are in [docs/rules.md](docs/rules.md).")
    assert files_mentioning(repo, ["README.md", "docs"], FORBIDDEN) == []


def test_every_setting_is_in_the_readme_table() -> None:
    from bot.settings import Settings

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("### Settings") :]
    table = table[: table.index("\n## ")]
    named = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    missing = {name.upper() for name in Settings.model_fields} - named
    assert not missing, f"settings missing from README.md's table: {sorted(missing)}"
