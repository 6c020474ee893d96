"""Chunks follow structure: headings, paragraphs, list items, code; size, overlap, lines."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mnemex.ingest import markdown
from mnemex.ingest.chunking import chunk_blocks, split_block
from mnemex.ingest.document import Block

NOTE = """---
tags: [project, "#infra"]
aliases: Atlas project
owner: "[[Priya Raman]]"
created: 2025-11-03
---
# Atlas

Intro with a [[Orca Cluster|cluster]] link and a #decision tag, not `#code` nor #123.

## Decisions

- First item
  continues here.
- Second item, see [[Runbook#Drills]].

```sh
# not a heading
echo hi
```

Setext title
------------

Body under setext. ![[diagram.png]] and ![[Embedded note]].
"""


def test_markdown_structure_lines_and_headings() -> None:
    doc = markdown.read(NOTE, "Atlas", 1000, 100)
    by_heading = {chunk.heading: chunk for chunk in doc.chunks}
    assert list(by_heading) == ["Atlas", "Atlas > Decisions", "Atlas > Setext title"]
    intro = by_heading["Atlas"]
    assert (intro.start, intro.end) == (9, 9)  # front matter lines count
    assert "cluster link" in intro.body and "[[" not in intro.body
    assert intro.entities == ["Orca Cluster"]
    decisions = by_heading["Atlas > Decisions"]
    assert (decisions.start, decisions.end) == (13, 20)
    assert "# not a heading" in decisions.body  # code stays code
    assert decisions.entities == ["Runbook"]
    setext = by_heading["Atlas > Setext title"]
    assert setext.start == 25 and "diagram.png" not in setext.body
    assert setext.entities == ["Embedded note"]
    assert doc.tags == ["project", "infra", "decision"]
    assert doc.aliases == ["Atlas project"]
    assert ("owner", "Priya Raman") in doc.links
    assert ("links_to", "Runbook") in doc.links
    assert doc.observed_at is not None and doc.observed_at.date().isoformat() == "2025-11-03"
    assert all(c.content.startswith(c.heading + "\n") for c in doc.chunks if c.heading)


def test_dated_headings_and_daily_notes_give_observed_at() -> None:
    doc = markdown.read("# Log\n\n## 2026-01-22\n\nTalked.\n\n## Other\n\nText.\n", "log", 500, 0)
    assert doc.chunks[0].observed_at is not None
    assert doc.chunks[0].observed_at.isoformat().startswith("2026-01-22")
    assert doc.chunks[1].observed_at is None
    daily = markdown.read("Shipped it.\n", "2026-02-09", 500, 0)
    assert daily.chunks[0].observed_at is not None
    assert daily.chunks[0].heading == "2026-02-09"


def test_size_and_overlap() -> None:
    paragraphs = [f"Paragraph {i} says something long enough to count. " * 3 for i in range(12)]
    text = "# Doc\n\n" + "\n\n".join(paragraphs) + "\n"
    doc = markdown.read(text, "doc", 400, 120)
    assert len(doc.chunks) > 3
    for before, after in zip(doc.chunks, doc.chunks[1:], strict=False):
        assert len(before.body) <= 400 + 120
        assert after.start <= before.end  # the overlap repeats the end of the chunk before
        assert after.body[:40] in before.body[-160:]  # ...as text, not only as lines
    no_overlap = markdown.read(text, "doc", 400, 0)
    assert all(
        a.start > b.end for b, a in zip(no_overlap.chunks, no_overlap.chunks[1:], strict=False)
    )


def test_a_long_paragraph_is_cut_between_sentences() -> None:
    text = " ".join(f"Sentence number {i} ends here." for i in range(60))
    pieces = split_block(Block("paragraph", text, 3, 3), 200)
    assert all(len(p.text) <= 200 for p in pieces)
    assert all(p.text.endswith(".") for p in pieces)
    assert " ".join(p.text for p in pieces) == text
    assert {(p.start, p.end) for p in pieces} == {(3, 3)}


def test_mnemex_note_is_one_chunk_without_its_entity_links() -> None:
    note = (
        "---\nid: mem_01abc\ncreated: '2026-01-01T00:00:00+00:00'\nobserved: null\n"
        "tags: [tools]\nentities: [Alice]\nstrength: 1.2\nuse_count: 3\n"
        "score_at_promotion: 0.9\nsource: null\n---\n\nAlice switched to Neovim\n\n"
        "## Entities\n\n[[Alice]]\n"
    )
    doc = markdown.read(note, "alice-switched", 1000, 100)
    assert doc.kind == "note" and doc.note is not None and doc.note["id"] == "mem_01abc"
    assert [c.body for c in doc.chunks] == ["Alice switched to Neovim"]
    assert doc.chunks[0].content == "Alice switched to Neovim"


_LINE = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=60
) | st.sampled_from(["", "# Heading", "## Sub", "- item", "```", "| a | b |", "1. step", "---"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_LINE, max_size=40), st.integers(200, 600), st.integers(0, 100))
@example(["---", "...", "after the front matter"], 200, 0)
def test_no_text_is_lost(lines: list[str], size: int, overlap: int) -> None:
    """Every word of every content line is in a chunk whose line range covers that line (front
    matter is metadata, not content: "---" then "..." is an empty one)."""
    doc = markdown.read("\n".join(lines) + "\n", "t", size, overlap)
    blocks = markdown.parse_blocks(lines, markdown.front_matter(lines)[1], "t")
    for block in blocks:
        if block.kind == "heading":
            continue
        for offset, line in enumerate(block.text.split("\n")):
            number = block.start + offset
            for word in line.split():
                if "[[" in word or "]]" in word:
                    continue
                assert any(c.start <= number <= c.end and word in c.body for c in doc.chunks), (
                    word,
                    number,
                )
    for chunk in doc.chunks:
        assert len(chunk.body) <= size + overlap + 2


def test_chunk_blocks_never_crosses_a_heading() -> None:
    blocks = [Block("paragraph", "a", 1, 1, ("T", "A")), Block("paragraph", "b", 2, 2, ("T", "B"))]
    chunks = chunk_blocks(blocks, 500, 100)
    assert [(c.body, c.path) for c in chunks] == [("a", ("T", "A")), ("b", ("T", "B"))]
