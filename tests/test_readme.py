"""The README tells the truth: every Python block, CLI command and curl example in it runs, in
order, against a fresh store, and gives what the README says it gives.

What counts as a claim (anything else in a comment is prose):
- Python: a statement whose comment is a literal (`x.action  # "MUST_SAVE"`) or literals joined
  by `|` (`r.action  # "created" | "superseded"`) must evaluate to (one of) them; a comment
  ending in `-> TEXT` needs TEXT in the value or in what the statement printed.
- Shell: a comment line `# -> TEXT` under a command needs TEXT in that command's output (spaces
  ignored, so `"k": 5` matches `"k":5`). Every command must exit 0.

How the shell is read: `mnemex ...` runs in-process (Typer's runner) with MNEMEX_DB naming the
fresh store; `curl ...` is sent to the app `mnemex serve` runs, in-process, with curl's own
defaults (`-d` is a form post unless a Content-Type header is given); `NAME=$(command | awk
'{print $NF}')` keeps the last word of the output; `<id>`, `<cluster>` and `tok_...` stand for the
last memory id, cluster id and token id printed so far. Commands that start a server, run for
minutes or need other programs are not run: for mnemex ones, `--help` must list the command
and every option the README gives it. A block preceded by `<!-- readme-test: skip REASON -->`
is not run at all. Python blocks share one namespace where `store` is the fresh store and
`my_llm` a stand-in for a chat model (it answers with the system prompt it was given).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import shlex
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

import mnemex
from mnemex.interfaces.cli import app as cli_app
from mnemex.interfaces.http import create_app

README = Path(__file__).resolve().parents[1] / "README.md"
SKIP = re.compile(r"<!--\s*readme-test:\s*skip\b(.*?)-->")
# Programs the README mentions that this test does not run, and why.
EXTERNAL = {
    "make": "builds the virtual environment the tests already run in",
    "python3": "creates another virtual environment",
    "pip": "installs packages",
    "claude": "Claude Code's own command",
}
# mnemex commands that are not run (checked against their --help instead).
NOT_RUN = {
    "serve": "starts a server that runs until stopped",
    "mcp": "speaks MCP on standard input until it closes",
    "bench": "benchmarks run for minutes",
    "eval": "evaluations run for minutes",
    "hook": "reads an agent's event from standard input",
    "ingest": "reads folders of the reader's own machine (tests/ingest runs it on a made-up one)",
}
PLACEHOLDERS = {
    "<id>": r"mem_[0-9a-z]{26}",
    "mem_...": r"mem_[0-9a-z]{26}",
    "<cluster>": r"cl_[0-9a-f]{16}",
    "tok_...": r"tok_[0-9a-z]{26}",
    "<review>": r"rev_[0-9a-z]{26}",
}


@dataclass
class Block:
    """A fenced block of the README: its language, text and first line number."""

    lang: str
    text: str
    line: int
    skip: str | None = None


def blocks(text: str) -> list[Block]:
    """Every fenced block, with the skip marker (if any) on the line before its fence."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = SKIP.search(before)
        found.append(
            Block(
                fence[1],
                "\n".join(lines[start:end]) + "\n",
                start + 1,
                marker[1].strip() or "marked" if marker else None,
            )
        )
        i = end + 1
    return found


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def claim_of(comment: str) -> tuple[str, Any] | None:
    """What a comment claims: ("one of", values), ("contains", text) or None (prose)."""
    text = comment.lstrip("#").strip()
    arrow = text.rfind("-> ")
    if arrow != -1 and (arrow == 0 or text[arrow - 1] == " "):
        return "contains", text[arrow + 3 :].strip()
    try:
        return "one of", [ast.literal_eval(part.strip()) for part in text.split(" | ")]
    except (ValueError, SyntaxError):
        return None


def check(thunk: Callable[[], Any], claimed: str, where: str) -> Any:
    """Evaluate a claimed statement and hold it to its claim (`claim_of`'s answer, as repr)."""
    claim = ast.literal_eval(claimed)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        value = thunk()
    kind, expected = claim
    if kind == "one of":
        assert value in expected, f"{where}: gave {value!r}, the README says {expected}"
    else:
        seen = printed.getvalue() + ("" if value is None else repr(value) + str(value))
        assert expected in seen, f"{where}: {expected!r} not in {seen[:500]!r}"
    return value


class Claims(ast.NodeTransformer):
    """Wraps each claimed expression or assignment in a call to `check`."""

    def __init__(self, comments: dict[int, str], origin: int) -> None:
        self.comments = comments
        self.origin = origin

    def _wrap(self, node: ast.expr, lineno: int) -> ast.expr | None:
        claim = claim_of(self.comments.get(lineno, "#"))
        if claim is None:
            return None
        where = f"README.md:{self.origin + lineno - 1}"
        call = ast.Call(
            func=ast.Name("__readme_check__", ast.Load()),
            args=[
                ast.Lambda(args=ast.arguments([], [], None, [], [], None, []), body=node),
                ast.Constant(repr(claim)),
                ast.Constant(where),
            ],
            keywords=[],
        )
        return ast.copy_location(call, node)

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        wrapped = self._wrap(node.value, node.end_lineno or node.lineno)
        if wrapped is not None:
            node.value = wrapped
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        wrapped = self._wrap(node.value, node.end_lineno or node.lineno)
        if wrapped is not None:
            node.value = wrapped
        return node


def run_python(block: Block, namespace: dict[str, Any]) -> None:
    comments = {
        token.start[0]: token.string
        for token in tokenize.generate_tokens(io.StringIO(block.text).readline)
        if token.type == tokenize.COMMENT
    }
    tree = ast.fix_missing_locations(Claims(comments, block.line).visit(ast.parse(block.text)))
    exec(compile(tree, f"README.md:{block.line}", "exec"), namespace)


@dataclass
class Shell:
    """The state a README shell session keeps: variables and everything printed so far."""

    client: TestClient
    variables: dict[str, str] = field(default_factory=dict)
    printed: str = ""
    last: str = ""
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def expand(self, line: str, where: str) -> str:
        for name, value in self.variables.items():
            line = line.replace(f"${name}", value)
        for holder, pattern in PLACEHOLDERS.items():
            if holder in line:
                seen = re.findall(pattern, self.printed)
                assert seen, f"{where}: nothing printed so far gives a value for {holder}"
                line = line.replace(holder, seen[-1])
        left = re.search(r"<[a-z][\w-]*>|\$\w+", line)
        assert left is None, (
            f"{where}: {left[0]} has no value: use a real value, or add it to PLACEHOLDERS "
            "in tests/test_readme.py"
        )
        return line

    def run(self, line: str, where: str) -> str:
        assignment = re.match(r"^(\w+)=\$\((.*)\)\s*(#.*)?$", line)
        if assignment:
            inner = assignment[2]
            last_word = re.search(r"\s*\|\s*awk\s+'\{print \$NF\}'\s*$", inner)
            assert last_word, f"{where}: only `| awk '{{print $NF}}'` pipes are understood"
            output = self.run(inner[: last_word.start()], where)
            self.variables[assignment[1]] = output.split()[-1]
            return output
        args = [self.expand(word, where) for word in shlex.split(line, comments=True)]
        if not args:
            return ""
        program = Path(args[0]).name
        if program == "mnemex":
            ran = self.mnemex(args[1:], where)
            if ran is None:
                return ""
            output = ran
        elif program == "curl":
            output = self.curl(args[1:], where)
        else:
            assert program in EXTERNAL, (
                f"{where}: {program} is not run by the README test: add it to EXTERNAL with why"
            )
            self.skipped.append(f"{where}: {program} ({EXTERNAL[program]})")
            return ""
        self.ran.append(f"{where}: {line.strip()}")
        self.printed += output
        self.last = output
        return output

    def mnemex(self, args: list[str], where: str) -> str | None:
        """A command's output, or None for a command that is only checked against --help."""
        command = next((a for a in args if not a.startswith("-") and "/" not in a), "")
        if command in NOT_RUN:
            words = [a for a in args if not a.startswith("-") and a != "..."]
            position = args.index(command)
            head = args[:position] + [w for w in words if w in (command, *words[1:2])]
            shown = CliRunner().invoke(cli_app, [*head, "--help"])
            assert shown.exit_code == 0, f"{where}: {' '.join(head)} --help: {shown.output}"
            for option in (a.split("=")[0] for a in args if a.startswith("--")):
                if option not in ("--db", "--tenant"):
                    assert option in shown.output, f"{where}: {option} is not an option"
            self.skipped.append(f"{where}: mnemex {command} ({NOT_RUN[command]})")
            return None
        result = CliRunner().invoke(cli_app, args)
        assert result.exit_code == 0, f"{where}: mnemex {' '.join(args)}\n{result.output}"
        return result.output

    def curl(self, args: list[str], where: str) -> str:
        method, url, data = None, None, None
        headers: dict[str, str] = {}
        words = iter(args)
        for word in words:
            if word in ("-s", "-S", "-sS", "--silent", "-f", "--fail"):
                continue
            if word in ("-H", "--header"):
                name, _, value = next(words).partition(":")
                headers[name.strip()] = value.strip()
            elif word in ("-d", "--data"):
                data = next(words)
            elif word in ("-X", "--request"):
                method = next(words)
            else:
                assert not word.startswith("-"), f"{where}: curl option {word} is not understood"
                url = word
        assert url is not None, f"{where}: curl without a URL"
        path = "/" + url.split("://")[-1].split("/", 1)[1]
        if data is not None:
            headers = {"Content-Type": "application/x-www-form-urlencoded", **headers}
        response = self.client.request(
            method or ("POST" if data is not None else "GET"),
            path,
            content=None if data is None else data.encode("utf-8"),
            headers=headers,
        )
        assert response.status_code < 400, f"{where}: {response.status_code} {response.text}"
        return response.text


def logical_lines(block: Block) -> Iterator[tuple[int, str]]:
    """The block's lines with `\\` continuations joined, numbered by their first line."""
    pending, first = "", 0
    for number, line in enumerate(block.text.splitlines(), block.line):
        if not pending:
            first = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield first, pending + line
        pending = ""


def run_shell(block: Block, shell: Shell) -> None:
    for number, line in logical_lines(block):
        where = f"README.md:{number}"
        stripped = line.strip()
        if stripped.startswith("#"):
            claim = claim_of(stripped)
            if claim is not None and claim[0] == "contains":
                assert squeeze(claim[1]) in squeeze(shell.last), (
                    f"{where}: {claim[1]!r} not in the output above it: {shell.last[:800]!r}"
                )
            continue
        if stripped:
            shell.run(stripped, where)


def fake_llm(messages: list[dict[str, str]]) -> str:
    """A stand-in chat model: answers with the system prompt it was given."""
    return "\n".join(m["content"] for m in messages if m["role"] == "system") or "ok"


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh store, data folder and home, and the README's commands run from tmp_path."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MNEMEX_DB", str(tmp_path / "readme.db"))
    for name in ("MNEMEX_TENANT", "MNEMEX_URL", "MNEMEX_TOKEN", "MNEMEX_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "home").mkdir()
    yield tmp_path / "readme.db"


def test_the_readme_examples_run_and_give_what_they_say(fresh: Path) -> None:
    found = blocks(README.read_text(encoding="utf-8"))
    with (
        mnemex.open(str(fresh)) as store,
        TestClient(create_app(store, mcp=False), base_url="http://127.0.0.1:8765") as client,
    ):
        shell = Shell(client)
        namespace: dict[str, Any] = {"__readme_check__": check, "my_llm": fake_llm}
        python_blocks = shell_blocks = 0
        for block in found:
            if block.skip is not None:
                continue
            if block.lang == "python":
                namespace["store"] = store  # a block may rebind it (`with ... as store`)
                run_python(block, namespace)
                python_blocks += 1
            elif block.lang in ("sh", "bash", "shell", "console"):
                run_shell(block, shell)
                shell_blocks += 1
            elif block.lang == "json":
                json.loads(block.text)
    print("\n".join(["ran:", *shell.ran, "not run:", *shell.skipped]))
    assert python_blocks >= 3 and shell_blocks >= 4
    assert any("curl" in line for line in shell.ran)
    assert len(shell.ran) >= 15, shell.ran


def test_the_claims_bite() -> None:
    """A wrong claim fails, prose is left alone, and an unknown placeholder is an error."""
    assert claim_of('# "MUST_SAVE"') == ("one of", ["MUST_SAVE"])
    assert claim_of('# "a" | "b"') == ("one of", ["a", "b"])
    assert claim_of("# ids of the memories it replaced") is None
    assert claim_of("# from the context -> Helix") == ("contains", "Helix")
    namespace: dict[str, Any] = {"__readme_check__": check}
    with pytest.raises(AssertionError, match="README says"):
        run_python(Block("python", 'x = "NONE"\nx  # "MUST_SAVE"\n', 1), namespace)
    with pytest.raises(AssertionError, match="not in"):
        run_python(Block("python", 'print("nothing")  # -> something\n', 1), namespace)
    shell = Shell(client=None)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="has no value"):
        shell.expand("mnemex show <memory>", "here")
    with pytest.raises(AssertionError, match="nothing printed"):
        shell.expand("mnemex show <id>", "here")
    fenced = "text\n<!-- readme-test: skip needs a GPU -->\n```sh\nmnemex train\n```\n"
    assert blocks(fenced)[0].skip == "needs a GPU"
