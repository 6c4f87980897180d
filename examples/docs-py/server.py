"""Documentation MCP server — the Python half of the MCP Toolsmith demo.

It serves the Markdown files of ./docs. It works, but its contract carries a few deliberate flaws for
Toolsmith to flag (marked "flaw:" below).
"""

from pathlib import Path
from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp.types import ToolAnnotations

DOCS_ROOT = (Path(__file__).parent / "docs").resolve()

mcp = MCPServer("docs")


# flaw: the official SDK never reads the `Args:` section — the model sees this whole docstring as one description
# and no description at all on `pattern` and `max_results`; `max_results` has no bounds either.
@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def grep_docs(pattern: str, max_results: int = 20) -> str:
    """Search the documentation for lines containing a text.

    Use when you need to find which page talks about a topic before reading it.

    Args:
        pattern: Text to look for, case-insensitive.
        max_results: How many matching lines to return at most.

    Returns:
        One line per match: the document path, the line number and the line.
    """
    needle = pattern.lower()
    hits: list[str] = []
    for doc in sorted(DOCS_ROOT.rglob("*.md")):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            if needle in line.lower():
                hits.append(f"{doc.relative_to(DOCS_ROOT)}:{number}: {line.strip()}")
                if len(hits) >= max_results:
                    return "\n".join(hits)
    return "\n".join(hits) if hits else f'No line contains "{pattern}".'


# flaw: a missing document is returned as a normal result ("Error: ...") instead of raising ToolError,
# so the model takes the error text for the document's content.
@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def read_doc(
    path: Annotated[str, Field(description='Path of the document relative to the docs folder, e.g. "guide/install.md".', max_length=200)],
) -> str:
    """Read one documentation page as Markdown.

    Use after grep_docs to read the whole page a match came from. Returns the page's Markdown text.
    """
    target = (DOCS_ROOT / path).resolve()
    # Containment check: never read outside the docs folder.
    if not target.is_relative_to(DOCS_ROOT) or not target.is_file():
        return f"Error: no document {path}"
    return target.read_text(encoding="utf-8")


if __name__ == "__main__":
    mcp.run()
