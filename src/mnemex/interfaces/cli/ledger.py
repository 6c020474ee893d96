"""CLI commands on the fact ledger and its review queue: facts, keys, profile, timeline,
reviews, review approve|reject; and on recall and analysis: recall, analyze."""

from __future__ import annotations

import typer

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, emit, open_store
from mnemex.interfaces.cli._output import (
    IDS_OPTION,
    emit_list,
    fact_line,
    memory_block,
    resolved,
    say,
    stamp,
)
from mnemex.models import VALUE_LABELS, Analysis, Recall, Review

review_app = typer.Typer(help="Settle a review of the queue (see `mnemex reviews`).")
app.add_typer(review_app, name="review", no_args_is_help=True)


@command("facts")
def facts(
    subject: str | None = typer.Argument(None, help="Only this subject's facts."),
    relation: str | None = typer.Option(None, help="Only this relation (key name)."),
    as_of: str | None = typer.Option(None, help="What held then, as known then (ISO 8601)."),
    history: bool = typer.Option(False, "--history", help="Superseded values too."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Current facts, one per key (subject, relation), with their validity windows."""
    with open_store(create=False) as store:
        found = store.facts(subject, relation, as_of=as_of, include_history=history)
    emit_list(found, as_json, as_ids, lambda f: f.id, fact_line, "no facts")


@command("keys")
def keys(
    subject: str | None = typer.Argument(None, help="Only this subject's keys."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """The current value of every key (of one subject, or all)."""
    with open_store(create=False) as store:
        found = store.keys(subject)
    emit_list(found, as_json, as_ids, lambda f: f.id, fact_line, "no keys")


@command("profile")
def profile(
    limit: int = typer.Option(20, help="At most this many facts."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Current, dated facts for the start of a session: the user's first."""
    with open_store(create=False) as store:
        found = store.profile(limit=limit)
    emit_list(found, as_json, as_ids, lambda f: f.id, fact_line, "no profile facts")


@command("timeline")
def timeline(
    subject: str = typer.Argument(..., help="Whose facts."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Every fact of a subject in time order, superseded and pending ones too."""
    with open_store(create=False) as store:
        found = store.timeline(subject)
    emit_list(found, as_json, as_ids, lambda f: f.id, fact_line, "no facts")


def _review_block(review: Review) -> None:
    say(f"{review.id}  {review.kind}  {review.status}  confidence {review.confidence:.2f}  "
        f"opened {stamp(review.created_at)}", "bold")  # fmt: skip
    payload = review.payload
    if "proposed" in payload:
        stated = payload.get("relation")
        named = f" (stated as {stated})" if stated and stated != payload["proposed"] else ""
        say(f"  {payload.get('subject')} / {payload['proposed']}{named} = {payload.get('value')}")
    for name, value in payload.items():
        if name not in ("subject", "proposed", "relation", "value", "subject_id"):
            say(f"  {name}: {value}", "dim")
    if review.resolution:
        say(f"  resolved {stamp(review.resolved_at)}: {review.resolution}", "dim")


@command("reviews")
def reviews(
    status: str = typer.Option("open", help="open, approved or rejected."),
    limit: int = typer.Option(50, help="At most this many, oldest first."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Decisions the engine left to a person; settle one with `mnemex review approve ID`."""
    with open_store(create=False) as store:
        found = store.reviews(status=status, limit=limit)
    emit_list(found, as_json, as_ids, lambda r: r.id, _review_block, f"no {status} reviews")


def _decide(review_id: str, decision: str, note: str | None, as_json: bool) -> None:
    with open_store(create=False) as store:
        review = store.resolve_review(resolved(store, review_id, "review"), decision, note=note)
    emit(review, as_json, _review_block)


NOTE_OPTION = typer.Option(None, help="Why (kept with the ruling).")


@command("approve", on=review_app)
def approve(
    review_id: str = typer.Argument(..., help="The review id (or its first characters)."),
    note: str | None = NOTE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Approve: the parked fact takes the proposed key."""
    _decide(review_id, "approve", note, as_json)


@command("reject", on=review_app)
def reject(
    review_id: str = typer.Argument(..., help="The review id (or its first characters)."),
    note: str | None = NOTE_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Reject: the fact keeps a key of its own (or is archived); the ledger stays as it was."""
    _decide(review_id, "reject", note, as_json)


@command("recall")
def recall(
    prompt: str = typer.Argument(..., help="The user's message or task."),
    k: int = typer.Option(5, "--k", "-k", help="At most this many memories."),
    context: str | None = typer.Option(None, help="The surrounding conversation."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Memories for a prompt, printed as the <recalled-memory> block an agent would get."""
    with open_store(create=False) as store:
        found = store.recall(prompt, k=k, context=context)
    if as_ids:
        emit_list([hit.memory for hit in found.hits], False, True, lambda m: m.id, memory_block, "")
        return

    def render(r: Recall) -> None:
        say(r.block if r.hits else "nothing to recall")

    emit(found, as_json, render)


@command("analyze")
def analyze(
    message: str = typer.Argument(..., help="A message from a conversation."),
    context: str | None = typer.Option(None, help="The surrounding conversation."),
    session_id: str | None = typer.Option(None, help="Messages of one session share context."),
    as_json: bool = JSON_OPTION,
) -> None:
    """What a message asks for (save, search, nothing) and what is worth keeping from it."""
    with open_store(create=False) as store:
        found = store.analyze(message, context=context, session_id=session_id)

    def render(a: Analysis) -> None:
        say(
            f"{a.action}  intent {a.intent} ({a.confidence:.2f})  strength {a.strength:.2f}", "bold"
        )
        # Names become entities on save; dates, times, versions and addresses stay values.
        for heading, values in (("entities", False), ("values", True)):
            shown = [
                str(e.get("text")) for e in a.entities if (e.get("label") in VALUE_LABELS) is values
            ]
            if shown:
                say(f"  {heading}: " + ", ".join(shown))
        if a.tags:
            say("  tags: " + ", ".join(a.tags))
        if a.duplicate_of:
            say(f"  duplicate of {a.duplicate_of}")
        say(f"  {a.reasoning}", "dim")

    emit(found, as_json, render)
