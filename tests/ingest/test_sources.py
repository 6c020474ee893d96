"""Reading files and transcripts: bad files are typed problems; transcript turns are sorted
by the rules before any analysis (no models here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemex.ingest import files, transcripts
from mnemex.ingest.transcripts import task_talk


def test_decode_names_the_problem() -> None:
    with pytest.raises(files.FileProblem) as binary:
        files.decode(b"abc\x00def")
    assert binary.value.code == "binary"
    with pytest.raises(files.FileProblem) as broken:
        files.decode("Café".encode("cp1252"))
    assert broken.value.code == "encoding" and "offset 3" in broken.value.message
    assert files.decode("\ufeffhé".encode()) == "hé"
    assert files.decode("hé".encode("utf-16")) == "hé"


def test_load_refuses_a_file_over_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("x" * 101)
    with pytest.raises(files.FileProblem) as error:
        files.load(big, 100)
    assert error.value.code == "too_large" and "ingest_max_file_bytes" in error.value.message
    with pytest.raises(files.FileProblem) as missing:
        files.load(tmp_path / "gone.txt", 100)
    assert missing.value.code == "unreadable"


def test_walk_skips_hidden_folders_and_keeps_order(tmp_path: Path) -> None:
    for name in ["b.md", "a.txt", ".hidden.md", ".obsidian/x.json", "node_modules/m.md", "d/c.pdf"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    (tmp_path / "loop").symlink_to(tmp_path)
    found = [(f.path.relative_to(tmp_path).as_posix(), f.kind) for f in files.walk(tmp_path)]
    assert found == [("a.txt", "text"), ("b.md", "markdown"), ("d/c.pdf", "pdf")]


def _claude(entries: list[dict[str, object]]) -> str:
    return "".join(json.dumps({"sessionId": "s1", **e}) + "\n" for e in entries)


RECALLED = (
    "<recalled-memory>\n- (2026-01-01) The staging DB is on 5433 (id: mem_1)\n</recalled-memory>"
)


def _user(content: object, **extra: object) -> dict[str, object]:
    return {"type": "user", "message": {"role": "user", "content": content}, **extra}


def test_claude_code_layout() -> None:
    hooked = [
        {"type": "text", "text": "run it"},
        {"type": "text", "text": f"<user-prompt-submit-hook>{RECALLED}</user-prompt-submit-hook>"},
    ]
    text = _claude(
        [
            {"type": "summary", "summary": "Fix the  flaky test"},
            _user("I prefer tabs.", timestamp="2026-02-03T09:12:00.000Z"),
            {"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "Bash"}]}},
            _user([{"type": "tool_result", "content": "ok"}]),
            {"type": "attachment", "attachment": {"type": "hook_additional_context",
                                                  "content": [RECALLED]}},
            _user("Caveat: ...", isMeta=True),
            _user("<command-name>/clear</command-name>"),
            _user(hooked),
            _user(RECALLED),
            _user("```\nTraceback (most recent call last):\n```"),
            _user("thanks!"),
            {"type": "file-history-snapshot", "snapshot": {}},
        ]
    ) + "not json\n"  # fmt: skip
    read = transcripts.read(text)
    assert read.kind == "claude-code" and read.title == "Fix the flaky test"
    assert read.bad_lines == [13]
    skips = [(t.line, t.skip) for t in read.turns]
    assert skips == [
        (2, None),
        (3, "tool call"),
        (4, "tool output"),
        (5, "injected"),
        (6, "meta"),
        (7, "command"),
        (8, None),
        (9, "recalled memory"),
        (10, "code dump"),
        (11, "chatter"),
    ]
    assert read.turns[0].timestamp is not None and read.turns[0].session == "s1"
    hooked = read.turns[6]
    assert hooked.text == "run it"  # what Mnemex injected never reaches the analysis


def test_generic_chat_layout_and_refusals() -> None:
    lines = [
        {"role": "system", "content": "<recalled-memory>\n- x\n</recalled-memory>"},
        {"role": "user", "content": [{"type": "text", "text": "My passport expires in 2027."}],
         "timestamp": 1767225600},
        {"role": "assistant", "content": "Noted."},
        {"role": "tool", "content": "{}"},
    ]  # fmt: skip
    read = transcripts.read("".join(json.dumps(line) + "\n" for line in lines))
    assert read.kind == "chat"
    assert [t.skip for t in read.turns] == ["system", None, "assistant", "tool output"]
    assert read.turns[1].timestamp is not None and read.turns[1].timestamp.year == 2026
    with pytest.raises(transcripts.TranscriptError, match="mnemex import"):
        transcripts.read('{"format": "mnemex-export", "version": 1}\n')
    with pytest.raises(transcripts.TranscriptError, match="role, content"):
        transcripts.read('{"a": 1}\n')


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("does it work?", "question"),
        ("yes fix it too", "reply"),
        ("that's odd, it passed", "reply"),
        ("I think the cache is stale", "guess"),
        ("rename it to fetch_user", "instruction"),
        ("please just use a dataclass", "instruction"),
        ("the CI is red again", "about this moment"),
        ("Always use a dataclass for settings", None),
        ("Never deploy on Fridays", None),
        ("Use tabs in this repo", None),
        ("We decided to drop Python 3.9", None),
        ("My manager is Priya", None),
        ("Not Cassandra anymore, PostgreSQL now", None),
    ],
)
def test_task_talk(text: str, reason: str | None) -> None:
    assert task_talk(text) == reason
