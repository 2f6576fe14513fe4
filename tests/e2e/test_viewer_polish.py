"""The viewer's everyday tools in a browser: highlighted and copyable code, find across a
whole run, data parts drawn with all their fields, writer output named by its tool, an axe
check of both colour schemes, and a narrow cell.

Every test opens the standalone run page (no JupyterLab, so none of its CSS variables: the
widget's own fallbacks and ``prefers-color-scheme`` decide the colours). Screenshots go to
``test-artifacts/screenshots/polish-*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab import LabPage
from lab.paths import ARTIFACTS, REPO
from playwright.sync_api import BrowserContext, Page, expect
from streamview import DARK_THEME, LIGHT_THEME, change_theme

import chunkscope as cs
from chunkscope.present.export import write_html

pytestmark = pytest.mark.e2e

AXE = REPO / "js" / "node_modules" / "axe-core" / "axe.min.js"
CODE = 'def greet(name: str) -> str:\n    """Say hello."""\n    return f"Hello, {name}!"  # 42\n'
ANSWER = f"Here is the helper:\n\n```python\n{CODE}```\n\nIt greets **anyone**.\n"
NEEDLE = "needle-zx81"
MANY_CALLS = 10_000
#: The call whose result holds the needle: far below the first screen, so windowed out.
NEEDLE_AT = 9_137


def _chunk(kind: str, payload: dict[str, Any], source: str = "AGENT") -> dict[str, Any]:
    return {"type": kind, "runId": "run-1", "from": source, "payload": payload}


def polish_chunks() -> list[dict[str, Any]]:
    """A run with reasoning, a code answer, a tool with writer output, and data parts."""
    call = {"toolCallId": "call-1", "toolName": "indexNotes"}
    return [
        _chunk("start", {"id": "agent", "messageId": "m1"}),
        _chunk("step-start", {"request": {}, "warnings": [], "messageId": "m1"}),
        _chunk("reasoning-start", {"id": "r1"}),
        _chunk("reasoning-delta", {"id": "r1", "text": "The user wants a `greet` helper."}),
        _chunk("reasoning-end", {"id": "r1"}),
        _chunk("tool-call", {**call, "args": {"folder": "notes", "deep": True}}),
        _chunk("tool-output", {**call, "output": {"indexed": 12, "of": 40}}, source="USER"),
        {"type": "data-progress", "id": "idx", "data": {"percent": 75, "label": "Indexing notes"}},
        {"type": "data-status", "id": "st", "data": {"status": "ready", "message": "index built"}},
        {
            "type": "data-table",
            "id": "tb",
            "data": [{"file": "a.md", "words": 120}, {"file": "b.md", "words": 87}],
        },
        _chunk("tool-result", {**call, "args": {"folder": "notes"}, "result": {"files": 40}}),
        _chunk("text-start", {"id": "t1"}),
        _chunk("text-delta", {"id": "t1", "text": ANSWER}),
        _chunk("text-end", {"id": "t1"}),
        _chunk("step-finish", {"stepResult": {"reason": "stop"}, "output": {"usage": {}}}),
        _chunk("finish", {"stepResult": {"reason": "stop"}, "output": {"usage": {}}}),
    ]


def many_calls_chunks() -> Iterator[dict[str, Any]]:
    """A run of MANY_CALLS tool calls; one result, far down, holds NEEDLE."""
    yield _chunk("start", {"id": "agent", "messageId": "m1"})
    yield _chunk("step-start", {"request": {}, "warnings": [], "messageId": "m1"})
    for k in range(MANY_CALLS):
        call = {"toolCallId": f"c{k}", "toolName": "lookup"}
        yield _chunk("tool-call", {**call, "args": {"n": k}})
        row = NEEDLE if k == NEEDLE_AT else f"row {k}"
        yield _chunk("tool-result", {**call, "args": {"n": k}, "result": {"row": row}})
    yield _chunk("text-start", {"id": "t1"})
    yield _chunk("text-delta", {"id": "t1", "text": "Looked everything up."})
    yield _chunk("text-end", {"id": "t1"})
    yield _chunk("finish", {"stepResult": {"reason": "stop"}, "output": {"usage": {}}})


@pytest.fixture(scope="module")
def polish_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("polish") / "polish.html"
    return write_html(cs.accumulate(polish_chunks(), title="polish"), path)


@pytest.fixture(scope="module")
def many_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("polish") / "many.html"
    return write_html(cs.accumulate(many_calls_chunks(), title="10k calls"), path)


def _context(browser: Any, scheme: str = "light", width: int = 1200) -> BrowserContext:
    # The page's policy allows only its own script: axe is injected with it bypassed.
    context = browser.new_context(
        viewport={"width": width, "height": 800}, color_scheme=scheme, bypass_csp=True
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    return context


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    contexts: list[BrowserContext] = []

    def opener(file: Path, scheme: str = "light", width: int = 1200) -> Page:
        context = _context(browser, scheme, width)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(file.resolve().as_uri(), wait_until="load")
        page.wait_for_selector(".chunkscope .cs-blocks [data-part-id]")
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield opener
    for context in contexts:
        context.close()


def shot(page: Page, name: str, target: Any = None) -> None:
    path = ARTIFACTS / "screenshots" / f"polish-{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    (target or page).screenshot(path=str(path))


def clipboard(page: Page) -> str:
    return page.evaluate("() => navigator.clipboard.readText()")


def test_code_block_is_highlighted_and_copies_its_text(open_page: Any, polish_page: Path) -> None:
    page = open_page(polish_page)
    code = page.locator(".cs-part-text .cs-code")
    page.wait_for_selector(".cs-part-text .cs-code code.hljs .hljs-keyword")
    assert code.locator(".cs-code-lang").get_attribute("data-lang") == "python"
    keywords = code.locator(".hljs-keyword").all_text_contents()
    assert "def" in keywords and "return" in keywords
    assert code.locator(".hljs-comment").text_content() == "# 42"
    # Coloured: a keyword is not drawn in the body text's colour.
    colors = page.evaluate(
        """() => {
          const code = document.querySelector('.cs-part-text .cs-code code');
          const kw = code.querySelector('.hljs-keyword');
          return [getComputedStyle(code).color, getComputedStyle(kw).color];
        }"""
    )
    assert colors[0] != colors[1]
    code.scroll_into_view_if_needed()
    shot(page, "code-block", code)

    button = code.get_by_role("button", name="Copy code (python)")
    button.click()
    page.wait_for_function(
        "() => document.querySelector('.cs-part-text .cs-code .cs-copy').dataset.copy === 'copied'"
    )
    assert clipboard(page) == CODE
    shot(page, "code-copied", code)

    # A copy is done when its button says so: the text may first have to be fetched.
    for name, want in (
        ("Copy message", ANSWER),
        ("Copy arguments", {"folder": "notes", "deep": True}),
        ("Copy result", {"files": 40}),
    ):
        copy = page.get_by_role("button", name=name).first
        copy.click()
        expect(copy).to_have_attribute("data-copy", "copied")
        copied = clipboard(page)
        assert (copied if isinstance(want, str) else json.loads(copied)) == want, name
    assert page.errors == []  # type: ignore[attr-defined]


def test_find_reveals_a_match_in_a_windowed_out_card(open_page: Any, many_page: Path) -> None:
    page = open_page(many_page)
    # The card holding the needle is far down a windowed list: not in the DOM at all.
    shown = "() => document.querySelector('.chunkscope .cs-blocks').textContent"
    assert NEEDLE not in page.evaluate(shown)
    drawn = page.locator(".cs-blocks .cs-part-tool").count()
    assert drawn < MANY_CALLS / 10

    page.locator(".cs-transcript").focus()
    page.keyboard.press("Control+f")
    search = page.get_by_role("searchbox", name="Find in run")
    expect(search).to_be_focused()
    search.fill(NEEDLE)
    count = page.locator(".cs-find-count")
    page.wait_for_function("() => document.querySelector('.cs-find-count').textContent !== ''")
    assert count.text_content() == "1 matches"
    search.press("Enter")
    page.wait_for_selector(f".cs-find-current:has-text({NEEDLE!r})")
    assert count.text_content() == "1 of 1"
    card = page.locator(".cs-find-current")
    assert NEEDLE in (card.text_content() or "")
    assert card.is_visible()
    # In view once the pages drawn around it have settled.
    page.wait_for_function(
        """() => {
          const card = document.querySelector('.cs-find-current').getBoundingClientRect();
          const box = document.querySelector('.cs-transcript').getBoundingClientRect();
          return card.bottom > box.top && card.top < box.bottom;
        }""",
        timeout=10_000,
    )
    painted = page.evaluate(
        "() => CSS.highlights.has('cs-find') ? CSS.highlights.get('cs-find').size : 0"
    )
    assert painted >= 1
    shot(page, "find-windowed-match", page.locator(".chunkscope"))

    # Narrowed to text parts, the tool result no longer matches; "row 1" matches many.
    page.get_by_role("combobox", name="Part kinds to search").select_option("text")
    page.wait_for_function(
        "() => document.querySelector('.cs-find-count').textContent === 'no matches'"
    )
    page.get_by_role("combobox", name="Part kinds to search").select_option("tool")
    search.fill("row 99")
    page.wait_for_function(
        "() => /matches$/.test(document.querySelector('.cs-find-count').textContent)"
    )
    assert count.text_content() == "111 matches"
    page.get_by_role("button", name="Previous match").click()
    assert count.text_content() == "111 of 111"
    search.press("Escape")
    assert page.locator(".cs-find").is_hidden()
    assert page.errors == []  # type: ignore[attr-defined]


def test_data_parts_show_every_field_and_writer_output_names_its_tool(
    open_page: Any, polish_page: Path
) -> None:
    page = open_page(polish_page)
    progress = page.locator(".cs-part-data", has_text="data-progress")
    assert progress.locator(".cs-progress-label").text_content() == "Indexing notes · 75%"
    assert progress.get_by_role("progressbar").get_attribute("aria-valuenow") == "75"
    status = page.locator(".cs-part-data", has_text="data-status")
    assert "ready" in (status.locator(".cs-badge").text_content() or "")
    assert "index built" in (status.text_content() or "")
    table = page.locator(".cs-part-data", has_text="data-table").locator("table")
    assert table.locator("th").all_text_contents() == ["file", "words"]
    assert table.locator("tbody tr").count() == 2

    output = page.locator(".cs-part-output")
    label = output.locator(".cs-label").first.text_content() or ""
    assert label == "output of indexNotes"
    assert "USER" not in (output.text_content() or "")
    # The output sits inside its tool's card.
    assert page.locator(".cs-part-tool .cs-part-output").count() == 1
    progress.scroll_into_view_if_needed()
    shot(page, "data-and-writer-output")

    # The raw `from` is in the inspector, with the chunk as received.
    page.get_by_role("tab", name="Chunks").click()
    row = page.locator(".cs-inspector-list .cs-row", has_text="tool-output").first
    row.click()
    detail = page.locator(".cs-inspector-detail")
    page.wait_for_function(
        "() => (document.querySelector('.cs-inspector-detail')?.textContent || '').includes('USER')"
    )
    assert "USER" in (detail.text_content() or "")
    shot(page, "writer-output-inspector")


def _serious(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
          const r = await axe.run(document.querySelector('.chunkscope'), {
            resultTypes: ['violations'],
          });
          return r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' :: ' + n.failureSummary),
          }));
        }"""
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} {v['nodes']}"
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violations(open_page: Any, polish_page: Path, scheme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run 'npm ci' in js/")
    page = open_page(polish_page, scheme=scheme)
    page.wait_for_selector(".cs-code code.hljs")
    problems = {"transcript": _serious(page)}
    shot(page, f"axe-{scheme}-transcript")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("searchbox", name="Find in run").fill("notes")
    page.keyboard.press("Enter")
    problems["find"] = _serious(page)
    page.keyboard.press("Escape")
    page.get_by_role("tab", name="Timeline").click()
    page.wait_for_selector(".cs-timeline-canvas")
    problems["timeline"] = _serious(page)
    shot(page, f"axe-{scheme}-timeline")
    page.get_by_role("tab", name="Chunks").click()
    page.wait_for_selector(".cs-inspector-list .cs-row")
    page.locator(".cs-inspector-list .cs-row").first.click()
    problems["chunks"] = _serious(page)
    shot(page, f"axe-{scheme}-chunks")
    assert {tab: found for tab, found in problems.items() if found} == {}


def test_keyboard_moves_through_tabs_cards_and_timeline(open_page: Any, polish_page: Path) -> None:
    page = open_page(polish_page)
    tab = page.get_by_role("tab", name="Transcript")
    tab.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Timeline")).to_be_focused()
    assert page.get_by_role("tab", name="Timeline").get_attribute("aria-selected") == "true"
    page.keyboard.press("ArrowLeft")
    expect(tab).to_be_focused()

    page.locator(".cs-transcript").focus()
    page.keyboard.press("ArrowDown")
    first = page.evaluate("() => document.activeElement.dataset.partId || null")
    assert first is not None
    page.keyboard.press("ArrowDown")
    second = page.evaluate("() => document.activeElement.dataset.partId || null")
    assert second is not None and second != first
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.classList.contains('cs-selected')")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    shot(page, "keyboard-card-focus")

    page.get_by_role("tab", name="Timeline").click()
    canvas = page.locator(".cs-timeline-canvas")
    canvas.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.get_by_role("tab", name="Transcript").get_attribute("aria-selected") == "true"
    assert page.locator(".cs-blocks .cs-selected").count() == 1

    # The inspector: arrow keys move through the rows, Enter opens the row's part.
    page.get_by_role("tab", name="Chunks").click()
    page.locator(".cs-inspector-list .cs-row", has_text="tool-call").first.click()
    listbox = page.get_by_role("listbox", name="Chunks")
    expect(listbox).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    active = listbox.get_attribute("aria-activedescendant")
    assert active is not None
    assert "tool-call" in (page.locator(f"#{active}").text_content() or "")
    page.keyboard.press("Enter")
    assert page.get_by_role("tab", name="Transcript").get_attribute("aria-selected") == "true"
    assert page.locator(".cs-blocks .cs-part-tool.cs-selected").count() == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bare_page_is_readable_in_both_schemes(
    open_page: Any, polish_page: Path, scheme: str
) -> None:
    page = open_page(polish_page, scheme=scheme)
    page.wait_for_selector(".cs-code code.hljs")
    colors = page.evaluate(
        """() => {
          const lum = (css) => {
            const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
              v /= 255;
              return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const root = document.querySelector('.chunkscope');
          const style = getComputedStyle(root);
          const bg = lum(style.backgroundColor), fg = lum(style.color);
          const page = lum(getComputedStyle(document.body).backgroundColor);
          const ratio = (Math.max(bg, fg) + 0.05) / (Math.min(bg, fg) + 0.05);
          return { bg, fg, page, ratio };
        }"""
    )
    if scheme == "dark":
        assert colors["bg"] < 0.05 and colors["page"] < 0.05
    else:
        assert colors["bg"] > 0.9 and colors["page"] > 0.9
    assert colors["ratio"] >= 7
    shot(page, f"bare-page-{scheme}")


def test_view_fits_a_400px_cell(open_page: Any, polish_page: Path) -> None:
    # The page pads its body by 16 px on each side: a 432 px window leaves a 400 px cell.
    page = open_page(polish_page, width=432)
    page.wait_for_selector(".cs-code code.hljs")
    for tab in ["Transcript", "Timeline", "Chunks"]:
        page.get_by_role("tab", name=tab).click()
        page.wait_for_timeout(300)
        sizes = page.evaluate(
            """() => {
              const root = document.querySelector('.chunkscope');
              return {
                width: root.getBoundingClientRect().width,
                scroll: root.scrollWidth,
                client: root.clientWidth,
                page: document.documentElement.scrollWidth,
                window: window.innerWidth,
              };
            }"""
        )
        assert sizes["width"] <= 400, sizes
        assert sizes["scroll"] <= sizes["client"], (tab, sizes)
        assert sizes["page"] <= sizes["window"], (tab, sizes)
        shot(page, f"narrow-{tab.lower()}")


#: A run whose tool result is far over the kernel's held limit: the page gets a preview.
SHOW_HELD = """
import chunkscope as cs
call = {"toolCallId": "big-1", "toolName": "dumpRows"}
rows = [f"row {k:05d} " + "x" * 90 for k in range(4000)]
chunks = [
    {"type": "start", "runId": "r", "from": "AGENT", "payload": {"id": "a", "messageId": "m"}},
    {"type": "tool-call", "runId": "r", "from": "AGENT", "payload": {**call, "args": {}}},
    {"type": "tool-result", "runId": "r", "from": "AGENT",
     "payload": {**call, "args": {}, "result": {"rows": rows}}},
    {"type": "finish", "runId": "r", "from": "AGENT",
     "payload": {"stepResult": {"reason": "stop"}, "output": {"usage": {}}}},
]
view = cs.show(chunks, title="held")
"""


def test_copy_fetches_a_held_value_whole_from_the_kernel(lab: LabPage) -> None:
    lab.set_save_widget_state(False)
    path = lab.new_notebook([SHOW_HELD], "held-copy")
    lab.open(path)
    assert lab.run_cell(0), "the cell that shows the run failed"
    page = lab.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    result = page.locator(".chunkscope .cs-part-tool .cs-section", has_text="result")
    result.locator(".cs-json-summary").first.wait_for(timeout=60_000)
    # The page holds only a preview; the tree says how many rows the whole value has.
    assert "[4000]" in (result.text_content() or "")
    held = page.evaluate(
        "() => document.querySelector('.chunkscope .cs-part-tool .cs-section').textContent"
    )
    assert "row 03999" not in held
    result.get_by_role("button", name="Copy result").click()
    page.wait_for_function(
        """() => {
          const b = document.querySelector('.chunkscope .cs-part-tool .cs-section .cs-copy');
          return b && (b.dataset.copy === 'copied' || b.dataset.copy === 'failed');
        }""",
        timeout=60_000,
    )
    state = result.locator(".cs-copy").first.get_attribute("data-copy")
    title = result.locator(".cs-copy").first.get_attribute("title")
    assert state == "copied", title
    copied = json.loads(clipboard(page))
    assert len(copied["rows"]) == 4000
    assert copied["rows"][3999].startswith("row 03999 ")
    shot(page, "held-copy", page.locator(".chunkscope"))


@pytest.mark.parametrize("theme", [LIGHT_THEME, DARK_THEME])
def test_axe_finds_no_serious_violations_in_jupyterlab(lab: LabPage, theme: str) -> None:
    lab.set_save_widget_state(False)
    cell = f"import chunkscope as cs\nview = cs.show({polish_chunks()!r}, title='polish')"
    path = lab.new_notebook([cell], f"axe-{theme.split()[-1].lower()}")
    lab.open(path)
    change_theme(lab, theme)
    assert lab.run_cell(0), "the cell that shows the run failed"
    page = lab.page
    page.wait_for_selector(".chunkscope .cs-code code.hljs", timeout=60_000)
    problems = {"transcript": _serious(page)}
    shot(page, f"lab-{theme.split()[-1].lower()}-transcript", page.locator(".chunkscope"))
    for tab, ready in [
        ("Timeline", ".cs-timeline-canvas"),
        ("Chunks", ".cs-inspector-list .cs-row"),
    ]:
        page.locator(".chunkscope").get_by_role("tab", name=tab).click()
        page.wait_for_selector(f".chunkscope {ready}", timeout=60_000)
        problems[tab.lower()] = _serious(page)
    assert {tab: found for tab, found in problems.items() if found} == {}
