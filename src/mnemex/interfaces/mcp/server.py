"""The MCP server: one tool per capability, each a MemoryStore call with a compact JSON answer.

Over stdio the tenant is the store's own (`--tenant` / MNEMEX_TENANT); over HTTP it is the tenant
of the request's bearer token, which the HTTP layer puts in the request's state. Errors come back
as `{"error": {"code", "message", "details"}}`, the same body as the REST API's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from mnemex import __version__
from mnemex.config import MAX_K
from mnemex.errors import MnemexError, NotFoundError
from mnemex.interfaces.mcp import compact
from mnemex.interfaces.mcp.guard import GuardedServer
from mnemex.models import to_jsonable
from mnemex.service import MemoryStore

INSTRUCTIONS = """\
Mnemex is your long-term memory. At the start of a task, call `recall` with the user's request
to get what you already know. When the user states a preference, a decision, a fact about
themselves or their project, or asks you to remember something, call `save_memory` (use
`analyze_message` first when unsure whether it is worth keeping). Call `search_memory` when the
user asks what was said or decided before, `open_memories` to read a hit in full, and
`observe_memory_usage` with the ids you actually used so useful memories stay alive. Use
`get_facts`/`get_profile` for current values of keys (a person's editor, a project's database)
and `timeline` for how one changed. Correct a wrong memory with `forget_memory` and a new
`save_memory`; never save secrets or whole transcripts."""

Text = Annotated[str, Field(min_length=1)]
Tags = Annotated[list[str] | None, Field(description="Labels such as 'work' or 'health'.")]
MemoryId = Annotated[str, Field(description="A memory id (mem_...).")]
Ids = Annotated[list[str], Field(description="Memory ids (mem_...).", min_length=1, max_length=50)]
Limit = Annotated[int, Field(ge=1, le=200, description="Page size.")]
K = Annotated[int, Field(ge=1, le=MAX_K, description="How many results.")]
Offset = Annotated[int, Field(ge=0, le=10_000, description="Skip this many (from next_offset).")]
When = Annotated[str | None, Field(description="ISO 8601 time, e.g. 2026-03-01T09:00:00Z.")]
Context_ = Annotated[
    str | None, Field(description="The surrounding conversation or task, to sharpen ranking.")
]

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True)


def tenant_of(ctx: Context) -> str | None:
    """The tenant the HTTP layer bound this request to; None over stdio or in-process."""
    request = ctx.request_context.request
    if request is None:
        return None
    state = getattr(request, "scope", {}).get("state") or {}
    tenant = state.get("tenant")
    return tenant if isinstance(tenant, str) else None


def _mapped(func: Callable[..., Any]) -> Callable[..., CallToolResult]:
    """The MCP side's one error mapping: a MnemexError becomes the shared JSON error body."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            text, failed = compact.dumps(func(*args, **kwargs)), False
        except MnemexError as exc:
            text, failed = compact.dumps({"error": exc.to_dict()}), True
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=failed)

    return wrapper


class MemoryTools:
    """The tools, each bound to the store; `ctx` picks the tenant view for the request."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def _for(self, ctx: Context) -> MemoryStore:
        tenant = tenant_of(ctx)
        if tenant is None or tenant == self.store.tenant:
            return self.store
        return self.store.for_tenant(tenant)

    def save_memory(
        self,
        content: Annotated[str, Field(description="What to remember, in one or a few sentences.")],
        ctx: Context,
        tags: Tags = None,
        entities: Annotated[list[str] | None, Field(description="People, projects, tools.")] = None,
        strength: Annotated[float | None, Field(ge=0, le=2, description="Importance.")] = None,
        source: Annotated[str | None, Field(description="Where it came from.")] = None,
        context: Context_ = None,
        meta: dict[str, Any] | None = None,
        observed_at: When = None,
        subject: Annotated[
            str | None, Field(description="Fact key: subject, e.g. 'Alice'.")
        ] = None,
        relation: Annotated[str | None, Field(description="Fact key: e.g. 'editor'.")] = None,
        value: Annotated[str | None, Field(description="Fact value, e.g. 'Neovim'.")] = None,
        skip_duplicate: bool = False,
    ) -> Any:
        """Remember something for later sessions; returns its id and whether it was new, a
        duplicate (stored and marked) or superseded an older value of the same fact key."""
        result = self._for(ctx).save(
            content,
            tags=tags,
            entities=entities,
            strength=strength,
            source=source,
            context=context,
            meta=meta,
            observed_at=observed_at,
            subject=subject,
            relation=relation,
            value=value,
            skip_duplicate=skip_duplicate,
        )
        return compact.save_brief(result)

    def search_memory(
        self,
        query: Annotated[str, Field(description="What to look for, in plain words.")],
        ctx: Context,
        k: K = 10,
        offset: Offset = 0,
        tags: Tags = None,
        entity: Annotated[str | None, Field(description="Only memories naming it.")] = None,
        window_days: Annotated[
            float | None, Field(gt=0, description="Only the last N days.")
        ] = None,
        as_of: When = None,
        include_history: bool = False,
    ) -> Any:
        """Find memories by meaning and words, ranked by relevance and how alive they are;
        returns previews (open_memories for full text) and next_offset when more follow.
        nearest_only: nothing matched closely, this is only the nearest memory."""
        hits = self._for(ctx).search(
            query,
            k=offset + k + 1,
            tags=tags,
            entity=entity,
            window_days=window_days,
            as_of=as_of,
            include_history=include_history,
        )
        return compact.page(hits, offset, k, compact.hit_brief)

    def recall(
        self,
        prompt: Annotated[str, Field(description="The user's message or the task at hand.")],
        ctx: Context,
        k: K = 5,
        context: Context_ = None,
    ) -> Any:
        """What you already know that bears on a prompt, as a dated <recalled-memory> block to
        read before answering, with the ids of the memories in it."""
        found = self._for(ctx).recall(prompt, k=k, context=context)
        return {"block": found.block, "ids": [hit.memory.id for hit in found.hits]}

    def analyze_message(self, message: Text, ctx: Context, context: Context_ = None) -> Any:
        """Whether a message is worth saving (MUST_SAVE, SHOULD_SAVE, DUPLICATE_DETECTED, NONE)
        or calls for a search (SHOULD_SEARCH), with suggested tags, entities and strength."""
        analysis = self._for(ctx).analyze(message, context=context)
        return compact.pruned(to_jsonable(analysis))

    def analyze_for_recall(self, message: Text, ctx: Context, context: Context_ = None) -> Any:
        """Whether a message asks about the past ("what did I say about...") and so warrants
        search_memory, with the entities and tags to search for."""
        analysis = self._for(ctx).analyze(message, context=context)
        return compact.pruned(
            {
                "should_search": analysis.action == "SHOULD_SEARCH" or analysis.recall_request,
                "confidence": analysis.confidence,
                "entities": [e.get("name") for e in analysis.entities],
                "tags": analysis.tags,
                "reasoning": analysis.reasoning,
            }
        )

    def open_memories(self, memory_ids: Ids, ctx: Context) -> Any:
        """The full text and details of memories by id (after search_memory or recall)."""
        store = self._for(ctx)
        found, missing = [], []
        for memory_id in memory_ids:
            try:
                found.append(compact.memory_full(store.get(memory_id)))
            except NotFoundError:
                missing.append(memory_id)
        return compact.pruned({"memories": found, "missing": missing})

    def touch_memory(self, memory_id: MemoryId, ctx: Context, boost: bool = False) -> Any:
        """Count one use of a memory now so it fades more slowly; boost also adds strength."""
        return compact.memory_brief(self._for(ctx).touch(memory_id, boost=boost), 80)

    def observe_memory_usage(self, memory_ids: Ids, ctx: Context, context: Context_ = None) -> Any:
        """Report the memories you actually used in this answer: each gets a use and a review,
        and memories used together learn to surface together."""
        used = self._for(ctx).observe(memory_ids, context=context)
        return {"items": [compact.memory_brief(memory, 80) for memory in used]}

    def forget_memory(
        self,
        memory_id: MemoryId,
        ctx: Context,
        hard: Annotated[bool, Field(description="Delete for good (not restorable).")] = False,
    ) -> Any:
        """Forget a wrong or obsolete memory: a soft delete that restore_memory undoes."""
        self._for(ctx).forget(memory_id, hard=hard)
        return {"id": memory_id, "status": "purged" if hard else "deleted"}

    def restore_memory(self, memory_id: MemoryId, ctx: Context) -> Any:
        """Bring back a forgotten or archived memory so search finds it again."""
        memory = self._for(ctx).restore(memory_id)
        return {"id": memory.id, "status": memory.status}

    def create_relation(
        self,
        from_entity: Text,
        to_entity: Text,
        relation_type: Annotated[str, Field(description="e.g. 'works_on', 'reports_to'.")],
        ctx: Context,
        strength: Annotated[float, Field(ge=0, le=2)] = 1.0,
    ) -> Any:
        """Link two entities (created if new) with a typed edge, e.g. Alice works_on Atlas."""
        relation = self._for(ctx).relate(from_entity, to_entity, relation_type, strength=strength)
        return {"id": relation.id, "from": from_entity, "type": relation.type, "to": to_entity}

    def read_graph(self, ctx: Context, limit: Limit = 50, offset: Offset = 0) -> Any:
        """The known entities (people, projects, tools), alphabetically, a page at a time."""
        entities = self._for(ctx).entities(limit=offset + limit + 1)
        return compact.page(entities, offset, limit, compact.entity_brief)

    def query_graph(
        self,
        entity: Text,
        ctx: Context,
        depth: Annotated[int, Field(ge=1, le=4)] = 2,
        categories: list[str] | None = None,
        relation_types: list[str] | None = None,
        as_of: str | None = None,
    ) -> Any:
        """An entity's neighbourhood: the memories that mention it and related entities;
        categories / relation_types / as_of give the entity graph filtered, or as it was."""
        found = self._for(ctx).graph(
            entity, depth=depth, categories=categories, relation_types=relation_types, as_of=as_of
        )
        return compact.graph_brief(found)

    def graph_path(
        self,
        from_entity: Text,
        to_entity: Text,
        ctx: Context,
        relation_types: list[str] | None = None,
        as_of: str | None = None,
    ) -> Any:
        """How two entities are connected: the shortest chain of relations between them."""
        found = self._for(ctx).path(
            from_entity, to_entity, relation_types=relation_types, as_of=as_of
        )
        return compact.graph_brief(found)

    def maint_scan(self, ctx: Context) -> Any:
        """What is wrong with the entity graph: duplicates, orphans, junk, bad relations."""
        report = self._for(ctx).maint_scan()
        return {
            "counts": report.counts,
            "findings": [compact.finding_brief(f) for f in report.findings],
        }

    def maint_fix(self, ctx: Context, dry_run: bool = True, kinds: list[str] | None = None) -> Any:
        """Fix the graph's findings (a dry run unless dry_run=false); each fix can be undone."""
        report = self._for(ctx).maint_fix(dry_run=dry_run, kinds=kinds)
        return {
            "counts": report.counts,
            "findings": [compact.finding_brief(f) for f in report.findings],
        }

    def get_profile(self, ctx: Context, limit: Limit = 20) -> Any:
        """The user's current profile: the most important facts that hold now."""
        facts = self._for(ctx).profile(limit=limit)
        return {"items": [compact.fact_brief(fact) for fact in facts]}

    def get_facts(
        self,
        ctx: Context,
        subject: str | None = None,
        relation: str | None = None,
        as_of: When = None,
        include_history: bool = False,
        limit: Limit = 50,
        offset: Offset = 0,
    ) -> Any:
        """Current values of fact keys (subject, relation); as_of gives what was believed at a
        past time, include_history adds superseded values."""
        facts = self._for(ctx).facts(
            subject, relation, as_of=as_of, include_history=include_history
        )
        return compact.page(facts, offset, limit, compact.fact_brief)

    def timeline(self, subject: Text, ctx: Context, limit: Limit = 50, offset: Offset = 0) -> Any:
        """How the facts about one subject changed over time, oldest first."""
        facts = self._for(ctx).timeline(subject)
        return compact.page(facts, offset, limit, compact.fact_brief)

    def review_queue(
        self,
        ctx: Context,
        status: Literal["open", "approved", "rejected"] = "open",
        limit: Limit = 20,
    ) -> Any:
        """Uncertain decisions (supersede, conflict, merge, alias) waiting for a person."""
        reviews = self._for(ctx).reviews(status=status, limit=limit)
        return {"items": [compact.review_brief(review) for review in reviews]}

    def resolve_review(
        self,
        review_id: Text,
        decision: Literal["approve", "reject"],
        ctx: Context,
        note: str | None = None,
    ) -> Any:
        """Approve (apply the proposed change) or reject (keep things as they are) a review
        from review_queue."""
        review = self._for(ctx).resolve_review(review_id, decision, note=note)
        return compact.review_brief(review)

    def gc(
        self, ctx: Context, dry_run: bool = True, hard: bool = False, confirm: bool = False
    ) -> Any:
        """List memories that faded below the forget threshold; archive them only with
        dry_run=false and confirm=true (after showing the list to the user). Explicit
        requests, pins and current facts are never archived."""
        report = self._for(ctx).gc(dry_run=dry_run or not confirm, hard=hard)
        answer = {
            "dry_run": report.dry_run,
            "threshold": report.threshold,
            "affected": report.affected,
            "candidates": to_jsonable(report.candidates[:20]),
            "total": len(report.candidates),
            "spared": report.spared,
        }
        if not dry_run and not confirm:
            answer["confirm_required"] = "a preview: call again with confirm=true to archive"
        return answer

    def promote_memory(
        self,
        ctx: Context,
        memory_id: str | None = None,
        auto: bool = False,
        dry_run: bool = True,
    ) -> Any:
        """Write lasting memories to the Markdown vault: one id, or (auto) all that qualify."""
        report = self._for(ctx).promote(memory_id, auto=auto, dry_run=dry_run)
        return {
            "dry_run": report.dry_run,
            "candidates": to_jsonable(report.candidates[:20]),
            "notes": report.notes,
        }

    def cluster_memories(
        self,
        ctx: Context,
        threshold: Annotated[float | None, Field(gt=0, le=1)] = None,
        limit: Limit = 10,
    ) -> Any:
        """Groups of near-duplicate memories; pass a cluster id to consolidate_memories."""
        clusters = self._for(ctx).cluster(threshold=threshold, limit=limit)
        return {"items": to_jsonable(clusters)}

    def consolidate_memories(
        self,
        cluster_id: Text,
        ctx: Context,
        dry_run: bool = True,
        threshold: Annotated[float | None, Field(gt=0, le=1)] = None,
    ) -> Any:
        """Preview (dry_run) or merge a cluster into one memory that keeps its provenance."""
        result = self._for(ctx).consolidate(cluster_id, dry_run=dry_run, threshold=threshold)
        return to_jsonable(result)

    def list_memories(
        self,
        ctx: Context,
        tags: Tags = None,
        entity: Annotated[str | None, Field(description="Only memories mentioning it.")] = None,
        status: Annotated[
            Literal["active", "promoted", "archived", "deleted"] | None,
            Field(description="Default: the live ones (active, promoted)."),
        ] = None,
        limit: Limit = 20,
        offset: Offset = 0,
    ) -> Any:
        """Browse memories newest first (not a search): by tag, entity or status, a page at a
        time; use search_memory to find memories about something."""
        found = self._for(ctx).memories(
            limit=limit + 1, offset=offset, status=status, tags=tags, entity=entity, order="created"
        )
        result: dict[str, Any] = {"items": [compact.memory_brief(m) for m in found[:limit]]}
        if len(found) > limit:
            result["next_offset"] = offset + limit
        return result

    def update_memory(
        self,
        memory_id: MemoryId,
        ctx: Context,
        content: Annotated[str | None, Field(description="The corrected text.")] = None,
        tags: Tags = None,
        strength: Annotated[float | None, Field(ge=0, le=2, description="Importance.")] = None,
        pinned: Annotated[
            bool | None, Field(description="Pin (never archived by gc) or unpin.")
        ] = None,
    ) -> Any:
        """Correct a memory in place (its text, tags or importance), or pin or unpin it; to
        replace a fact that changed, save the new statement instead."""
        store = self._for(ctx)
        fields = {
            name: value
            for name, value in (("content", content), ("tags", tags), ("strength", strength))
            if value is not None
        }
        memory = store.update(memory_id, **fields) if fields else store.get(memory_id)
        if pinned is not None:
            memory = store.pin(memory_id, pinned=pinned)
        return compact.memory_full(memory)

    def get_entity(self, name: Text, ctx: Context) -> Any:
        """One entity (person, project, tool, place) by name or alias: category, aliases, tags,
        summary; query_graph gives its memories and relations."""
        entity = self._for(ctx).entity(name)
        return compact.pruned(
            {**compact.entity_brief(entity), "tags": entity.tags, "summary": entity.summary}
        )

    def activity_log(
        self,
        ctx: Context,
        kind: Annotated[str | None, Field(description="e.g. save, recall, gc.")] = None,
        limit: Limit = 20,
    ) -> Any:
        """What happened in this memory store, newest first: saves, recalls, supersessions,
        review rulings, gc runs."""
        events = self._for(ctx).events(kind=kind, limit=limit)
        return {"items": to_jsonable(events)}

    def memory_stats(self, ctx: Context) -> Any:
        """Counts, score distribution and configuration of this memory store."""
        return self._for(ctx).stats()


TOOLS: dict[str, ToolAnnotations] = {
    "save_memory": WRITE,
    "search_memory": READ,
    "recall": READ,
    "analyze_message": READ,
    "analyze_for_recall": READ,
    "open_memories": READ,
    "touch_memory": WRITE,
    "observe_memory_usage": WRITE,
    "forget_memory": DESTRUCTIVE,
    "restore_memory": WRITE,
    "create_relation": WRITE,
    "read_graph": READ,
    "query_graph": READ,
    "graph_path": READ,
    "maint_scan": READ,
    "maint_fix": WRITE,
    "get_profile": READ,
    "get_facts": READ,
    "timeline": READ,
    "review_queue": READ,
    "resolve_review": WRITE,
    "gc": DESTRUCTIVE,
    "promote_memory": WRITE,
    "cluster_memories": READ,
    "consolidate_memories": DESTRUCTIVE,
    "memory_stats": READ,
    "list_memories": READ,
    "update_memory": WRITE,
    "get_entity": READ,
    "activity_log": READ,
}


def build_server(store: MemoryStore) -> MCPServer:
    """An MCP server whose tools call `store` (or its tenant views, over HTTP)."""
    server = GuardedServer(
        "mnemex", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    tools = MemoryTools(store)
    for name, hints in TOOLS.items():
        method = getattr(tools, name)
        server.add_tool(
            _mapped(method),
            name=name,
            description=" ".join((method.__doc__ or "").split()),
            annotations=hints,
            structured_output=False,
        )
    return server
