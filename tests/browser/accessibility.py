"""axe-core, from npm, run in the page by the accessibility tests only: it is installed into
tests/browser/axe/node_modules (`npm ci --prefix tests/browser/axe`, which .ci/run does) and
never served by the app. It is evaluated through the browser's DevTools protocol, which the
page's Content-Security-Policy does not apply to, so the page under test keeps its own policy."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
HOW_TO_INSTALL = "npm ci --prefix tests/browser/axe"
SERIOUS = ("serious", "critical")

RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}"""


def axe_source() -> str | None:
    return AXE.read_text(encoding="utf-8") if AXE.is_file() else None


def violations(page, source: str) -> list[dict]:
    """Every violation axe finds in the page as it is now (all impacts)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    return page.evaluate(RUN)


def serious_violations(page, source: str) -> list[dict]:
    return [v for v in violations(page, source) if v["impact"] in SERIOUS]
