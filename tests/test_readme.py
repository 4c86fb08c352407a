"""The README's set-up commands say what the long first install is doing, and the figure
they print agrees with the one the README measured; the service pages' tables render whole."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt  # with the test extras (through inspect-ai)

from tests.helpers import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
NOTE = re.compile(
    r'echo "first install: pip builds llama-cpp-python from source, (\d+) to (\d+) minutes'
)


def setup_commands() -> list[str]:
    section = README[README.index("## Set-up") : README.index("**About the embedded judge.**")]
    return re.findall(r"```sh\n(python3 -m venv[^\n]*)\n```", section)


def test_every_setup_command_prints_a_note_before_the_long_install() -> None:
    commands = setup_commands()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")

    assert len(commands) == 2
    for command in [*commands, next(line for line in ci.splitlines() if "pip install" in line)]:
        note = NOTE.search(command)
        assert note is not None, command
        assert command.index("echo") < command.index("pip install"), command


def test_the_note_spans_the_idle_and_the_measured_loaded_build_times() -> None:
    note = NOTE.search(setup_commands()[0])
    assert note is not None
    low, high = int(note.group(1)), int(note.group(2))
    idle = re.search(r"about (\d+) minutes on two idle cores", README)
    loaded = re.search(r"and (\d+) minutes measured on two cores shared", README)

    assert idle is not None and loaded is not None
    assert low == int(idle.group(1)) and int(loaded.group(1)) <= high


def _table_rows(markdown: str) -> tuple[int, int]:
    """How many table rows the source writes, and how many a CommonMark renderer with tables
    draws (a blank line inside a table ends it: the rows after it render as a paragraph)."""
    written = sum(
        1 for line in markdown.splitlines() if line.startswith("|") and not set(line) <= set("|-: ")
    )
    drawn = MarkdownIt("commonmark").enable("table").render(markdown).count("<tr>")
    return written, drawn


def test_every_table_of_the_service_pages_renders_every_row_it_writes() -> None:
    broken = {}
    for name in ("service.md", "console.md", "deploy.md"):
        written, drawn = _table_rows((REPO / "docs" / name).read_text(encoding="utf-8"))
        if written != drawn:
            broken[name] = (written, drawn)
    assert broken == {}


def test_the_routes_table_of_the_service_docs_is_one_table_to_the_console() -> None:
    service = (REPO / "docs" / "service.md").read_text(encoding="utf-8")
    section = service[service.index("## Routes") : service.index("All of them are in the OpenAPI")]
    html = MarkdownIt("commonmark").enable("table").render(section)
    assert html.count("<table>") == 1
    assert "<td><code>POST /api/{evals,agent}/submissions</code>" in html
    assert "<td><code>/console/…</code></td>" in html
