"""`mnemex eval enrich --set PATH`: entities, categories, tags, duplicate merges and profile facts
scored against a labelled set (schema: bench/data/README.md, "Enrichment sets").

Messages are saved in order into one store (one tenant: a first name can link to a full name
another message gave), with enrichment filling entities and tags. Each saved memory's entities
are read back as the nodes they became (canonical name and aliases):

- an entity is right when its node's name or one of its aliases is the labelled canonical name;
  a looser figure also accepts a node named as one of the labelled mentions;
- a category is right when the node of a right entity has the labelled category;
- a tag is acceptable when it is one of the labelled tags or a spelling of one (case, hyphens and
  spaces, a plural, a known name's alias: "postgres" for "postgresql"); a tag is a sentence
  fragment when it has three words or more, or two words whose last is not a noun of the text
  or one of which is a verb, adverb, pronoun, determiner, preposition or number (spaCy's tagger
  on the message) and the labeller filed no message of the set under it;
- each pair is set up in a fresh store from its context memories; a name's node is the entity of
  that name or alias, else the entity that a memory using the name links to and whose name has
  it as a word ("Priya" -> "Priya Nair"); "same" is predicted when both names reach one node, or
  `maint scan` proposes merging their nodes;
- the walk-through persona is saved in order in a fresh store and each fact `profile()` returns is
  right when a labelled fact has its subject (the store's `user` is the persona, the subject of
  the first labelled fact), a value that equals or contains the labelled one (or is contained in
  it: "Ben" for "Ben Okoro") and an attribute sharing a word with the labelled one.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import mnemex
from mnemex.config import Settings
from mnemex.errors import NotFoundError
from mnemex.gazetteer import canonical_map
from mnemex.text import normalize_name

CATEGORY_SYNONYMS = {"organization": "organisation", "tool": "technology", "org": "organisation"}
_CLOSED_POS = frozenset({"VERB", "AUX", "ADV", "PRON", "DET", "ADP", "NUM", "CCONJ", "SCONJ"})
_NOUNS = frozenset({"NOUN", "PROPN"})


def fold(text: str) -> str:
    """Case, accents, spacing and the apostrophes inside a name folded: the comparable form of
    a name, the engine's own key (`normalize_name`: "Søren Kjær" is "Soren Kjaer", "O'Donnell"
    "ODonnell"), so a name the engine linked to a node is counted as naming it."""
    return normalize_name(text.replace("’", "'"))


def tag_key(tag: str) -> str:
    """A tag's comparable form: lowercase, hyphens and underscores as spaces, a plural dropped,
    and a known name's alias as the name ("postgres" and "postgresql" are one tag)."""
    words = fold(tag).replace("-", " ").replace("_", " ").split()
    known = canonical_map().get(" ".join(words))
    if known is not None:
        return fold(known[0])
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def category_key(category: str | None) -> str:
    """A category in the labels' vocabulary."""
    value = (category or "other").casefold()
    return CATEGORY_SYNONYMS.get(value, value)


def load(path: Path) -> dict[str, Any]:
    """A labelled set: messages, pairs and the walk-through."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _settings(embed_model: str | None) -> Settings:
    settings = Settings.load(env={})
    return settings if embed_model is None else settings.replace(embed_model=embed_model)


@functools.cache
def _tagger() -> Any:
    import spacy

    from mnemex.analysis.words import SPACY_MODEL

    return spacy.load(SPACY_MODEL, exclude=["ner", "parser", "lemmatizer"])


def fragment(tag: str, text: str, labelled: Iterable[str], names: Iterable[str] = ()) -> bool:
    """True when a tag reads as a cut-out piece of the sentence rather than a topic (a
    labelled tag or a labelled entity's name is never one)."""
    if tag_key(tag) in {tag_key(t) for t in [*labelled, *names]}:
        return False
    words = tag_key(tag).split()
    if len(words) >= 3:
        return True
    if len(words) < 2:
        return False
    pos: dict[str, str] = {}
    for token in _tagger()(text):
        pos.setdefault(fold(token.text), token.pos_)
    tags = [pos.get(w) for w in words]
    if any(t in _CLOSED_POS for t in tags if t):
        return True
    return tags[-1] is not None and tags[-1] not in _NOUNS


def _node(store: mnemex.MemoryStore, name: str) -> Any | None:
    try:
        return store.entity(name)
    except NotFoundError:
        return None


def _names(entity: Any) -> set[str]:
    return {fold(entity.name), *(fold(a) for a in entity.aliases)}


def _saved(
    messages: Sequence[dict[str, Any]], settings: Settings, tag_sources: Sequence[str] | None
) -> list[tuple[dict[str, Any], Any, list[tuple[str, Any]]]]:
    """Each message saved in order into one store, with its memory and the nodes it links."""
    saved = []
    with mnemex.open(":memory:", settings=settings) as store:
        if tag_sources is not None:  # an ablation: some sources of tags switched off
            store.engine.analyzer.tag_sources = tuple(tag_sources)
        for item in messages:
            saved.append(store.save(item["text"]).id)
        rows = []
        for item, memory_id in zip(messages, saved, strict=True):
            memory = store.get(memory_id)
            nodes = {}
            for name in memory.entities:
                node = _node(store, name)
                if node is not None:
                    nodes[node.id] = (name, node)
            rows.append((item, memory, list(nodes.values())))
    return rows


def score_messages(
    messages: Sequence[dict[str, Any]],
    settings: Settings,
    tag_sources: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Entity, category and tag figures of the messages saved in order into one store."""
    rows = _saved(messages, settings, tag_sources)
    # A tag the labeller filed any message of the set under is a topic, not a cut-out piece of
    # a sentence: the tagger reuses the tenant's tags ("on-call" for another on-call message),
    # and whether it fits this message is what `tags_acceptable` counts.
    vocabulary = sorted({tag for item in messages for tag in item.get("tags", [])})
    predicted = right = right_loose = labelled = found = found_loose = 0
    categories = categories_right = 0
    tags_total = tags_ok = fragments = with_tags_ok = filled = fillable = 0
    intent_first = 0
    misses: list[dict[str, Any]] = []
    for item, memory, nodes in rows:
        labels = item.get("entities", [])
        labelled += len(labels)
        predicted += len(nodes)
        if labels:
            fillable += 1
            filled += bool(nodes)
        matched_labels: set[int] = set()
        wrong: list[str] = []
        for mention, node in nodes:
            names = _names(node) | {fold(mention)}
            strict = [i for i, lab in enumerate(labels) if fold(lab["name"]) in _names(node)]
            loose = [
                i
                for i, lab in enumerate(labels)
                if names & {fold(lab["name"]), *(fold(m) for m in lab.get("mentions", []))}
            ]
            right += bool(strict)
            right_loose += bool(loose)
            if strict:
                matched_labels.add(strict[0])
                categories += 1
                want = category_key(labels[strict[0]].get("category"))
                got = category_key(node.category)
                categories_right += want == got
                if want != got:
                    wrong.append(f"{node.name}: {got} (label {want})")
            elif not loose:
                wrong.append(f"{node.name}: not an entity")
        found += len(matched_labels)
        found_loose += sum(
            any(
                (_names(node) | {fold(mention)})
                & {fold(lab["name"]), *(fold(m) for m in lab.get("mentions", []))}
                for mention, node in nodes
            )
            for lab in labels
        )
        missed = [lab["name"] for i, lab in enumerate(labels) if i not in matched_labels]
        want_tags = {tag_key(t) for t in item.get("tags", [])}
        accepted = [t for t in memory.tags if tag_key(t) in want_tags]
        label_names = [n for lab in labels for n in [lab["name"], *lab.get("mentions", [])]]
        cut = [t for t in memory.tags if fragment(t, item["text"], vocabulary, label_names)]
        tags_total += len(memory.tags)
        tags_ok += len(accepted)
        with_tags_ok += bool(accepted)
        fragments += len(cut)
        intent_first += bool(memory.tags) and memory.tags[0] in {
            "preference",
            "decision",
            "fact",
            "update",
        }
        if wrong or missed or len(accepted) < len(memory.tags):
            misses.append(
                {
                    "text": item["text"],
                    "wrong": wrong,
                    "missed": missed,
                    "tags": memory.tags,
                    "labelled_tags": item.get("tags", []),
                    "fragments": cut,
                }
            )
    return {
        "messages": len(messages),
        "entity_precision": _ratio(right, predicted),
        "entity_recall": _ratio(found, labelled),
        "entity_precision_mentions": _ratio(right_loose, predicted),
        "entity_recall_mentions": _ratio(found_loose, labelled),
        "entities_predicted": predicted,
        "entities_labelled": labelled,
        "saves_with_entities": _ratio(filled, fillable),
        "category_accuracy": _ratio(categories_right, categories),
        "tags_acceptable": _ratio(tags_ok, tags_total),
        "tags_suggested": tags_total,
        "messages_with_an_acceptable_tag": _ratio(with_tags_ok, len(messages)),
        "fragment_tags": fragments,
        "intent_label_first": intent_first,
        "misses": misses,
    }


def _ratio(num: int, den: int) -> float:
    return round(num / den, 4) if den else 0.0


def _resolve(store: mnemex.MemoryStore, name: str, saved: Sequence[tuple[str, Any]]) -> Any:
    """The node a name became in the memories that use it as written: the entity that memory
    links to and that the name names (its name or an alias, or a word of its name: "Priya" in
    "Priya Nair"); None when those memories link none (the word stayed a word). A name no
    context memory writes that way (alone: not the first word of a longer capitalised name) is
    looked up in the store."""
    key = fold(name)
    # As written alone: "Square" in "Square Terminal battery ..." is the longer name's word.
    alone = rf"(?<!\w){re.escape(name)}(?!\w)(?!\s+[A-Z])"
    using = [m for text, m in saved if re.search(alone, text)]
    linked = [n for m in using for n in map(lambda e: _node(store, e), m.entities) if n]
    for other in linked:
        if key in _names(other):
            return other
    for other in linked:
        if any(key in n.split() for n in _names(other)):
            return other
    return None if using else _node(store, name)


def proposed_merges(store: mnemex.MemoryStore) -> set[frozenset[str]]:
    """Entity id pairs that `maint scan` proposes to merge."""
    scan = getattr(store, "maint_scan", None)
    if scan is None:
        return set()
    report = scan()
    return {
        frozenset(finding.entities)
        for finding in report.findings
        if finding.kind == "duplicate" and len(finding.entities) == 2
    }


def score_pairs(pairs: Sequence[dict[str, Any]], settings: Settings) -> dict[str, Any]:
    """Duplicate-merge precision and recall, each pair in a fresh store of its context."""
    tp = fp = fn = 0
    attribute_nodes = 0
    by_kind: dict[str, dict[str, int]] = {}
    wrong: list[dict[str, Any]] = []
    for pair in pairs:
        with mnemex.open(":memory:", settings=settings) as store:
            ids = [(text, store.save(text).id) for text in pair.get("context", [])]
            # each memory as the store holds it once all are saved (links made later count)
            saved = [(text, store.get(memory_id)) for text, memory_id in ids]
            a, b = _resolve(store, pair["a"], saved), _resolve(store, pair["b"], saved)
            merges = proposed_merges(store)
        same = a is not None and b is not None and (a.id == b.id or {a.id, b.id} in merges)
        truth = bool(pair["same"])
        tp += same and truth
        fp += same and not truth
        fn += truth and not same
        if pair.get("kind") == "attribute" and b is not None and (a is None or a.id != b.id):
            attribute_nodes += 1
        kind = by_kind.setdefault(pair.get("kind", "?"), {"pairs": 0, "right": 0})
        kind["pairs"] += 1
        kind["right"] += same == truth
        if same != truth:
            wrong.append({"a": pair["a"], "b": pair["b"], "same": truth, "kind": pair.get("kind")})
    return {
        "pairs": len(pairs),
        "merge_precision": _ratio(tp, tp + fp),
        "merge_recall": _ratio(tp, tp + fn),
        "merges_proposed": tp + fp,
        "attribute_pairs_with_a_node": attribute_nodes,
        "by_kind": by_kind,
        "wrong": wrong,
    }


# Words a labeller and the engine use for one attribute ("occupation" for "role", "boss" for
# "manager", "dog" for "pet", "spouse" for "wife"): a fact keyed by one matches a label of
# another.
_SAME_ATTRIBUTE = [
    {"role", "occupation", "job", "title", "position", "profession"},
    {"manager", "boss", "supervisor"},
    {"pet", "dog", "cat"},
    {"car", "vehicle"},
    {"fiance", "fiancee"},
    {"spouse", "wife", "husband"},
]
_AS_ONE = {word: min(words) for words in _SAME_ATTRIBUTE for word in words}


def _relation_words(relation: str) -> set[str]:
    words = set(tag_key(relation).split()) - {"of", "the", "a"}
    return {_AS_ONE.get(word, word) for word in words}


def _fact_matches(fact: Any, label: dict[str, Any], aliases: dict[str, set[str]]) -> bool:
    return _states(fact, label, aliases) or _states_inverse(fact, label, aliases)


def _states_inverse(fact: Any, label: dict[str, Any], aliases: dict[str, set[str]]) -> bool:
    """A labeller may write "Priscila Amaral / role / sous chef" for the fact the engine reads
    as "user / sous_chef / Priscila Amaral": the same statement from the other end."""
    subject = fold(label["subject"])
    if fold(fact.object).strip(" .") not in {subject, *aliases.get(subject, set())}:
        return False
    if not _relation_words(label["attribute"]) & {_AS_ONE["role"]}:
        return False
    return tag_key(fact.relation) == tag_key(label["value"])


def _states(fact: Any, label: dict[str, Any], aliases: dict[str, set[str]]) -> bool:
    subject = fold(label["subject"])
    subjects = {subject, *aliases.get(subject, set())}
    if fold(fact.subject) not in subjects:
        return False
    value = fold(label["value"])
    got = fold(fact.object).strip(" .")
    if not (got == value or (len(got) > 2 and (got in value or value in got))):
        return False
    a, b = _relation_words(fact.relation), _relation_words(label["attribute"])
    return bool(a & b) or tag_key(fact.relation) == tag_key(label["attribute"])


def score_walkthrough(walk: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """Share of the profile's facts that a labelled fact confirms (and of labels found)."""
    with mnemex.open(":memory:", settings=settings) as store:
        for text in walk.get("memories", []):
            store.save(text)
        profile = store.profile(limit=100)
        aliases: dict[str, set[str]] = {}
        for label in walk.get("facts", []):
            node = _node(store, label["subject"])
            if node is not None:
                aliases[fold(label["subject"])] = _names(node)
    labels = walk.get("facts", [])
    if labels:  # the persona speaks in the first person: the store's "user" is its first subject
        aliases.setdefault(fold(labels[0]["subject"]), set()).add("user")
    right = [f for f in profile if any(_fact_matches(f, lab, aliases) for lab in labels)]
    found = [lab for lab in labels if any(_fact_matches(f, lab, aliases) for f in profile)]
    return {
        "memories": len(walk.get("memories", [])),
        "profile_facts": len(profile),
        "profile_right": len(right),
        "profile_precision": _ratio(len(right), len(profile)),
        "profile_recall": _ratio(len(found), len(labels)),
        "wrong_facts": [
            f"{f.subject} / {f.relation} / {f.object}" for f in profile if f not in right
        ],
    }


def ablation(path: Path, *, embed_model: str | None = None) -> list[dict[str, Any]]:
    """Tag figures with each source of tags left out in turn (and all of them in)."""
    from mnemex.analysis.tags import SOURCES

    messages = load(path).get("messages", [])
    settings = _settings(embed_model)
    rows = []
    for left_out in (None, *SOURCES):
        sources = [s for s in SOURCES if s != left_out]
        m = score_messages(messages, settings, sources)
        rows.append(
            {
                "without": left_out or "-",
                "tags_acceptable": m["tags_acceptable"],
                "tags_suggested": m["tags_suggested"],
                "messages_with_an_acceptable_tag": m["messages_with_an_acceptable_tag"],
                "fragment_tags": m["fragment_tags"],
            }
        )
    return rows


def run(path: Path, *, embed_model: str | None = None, details: bool = False) -> dict[str, Any]:
    """Every figure of one labelled set."""
    data = load(path)
    settings = _settings(embed_model)
    started = time.perf_counter()
    report: dict[str, Any] = {"set": str(path), "embed_model": settings.embed_model}
    report["messages"] = score_messages(data.get("messages", []), settings)
    report["pairs"] = score_pairs(data.get("pairs", []), settings)
    if data.get("walkthrough"):
        report["walkthrough"] = score_walkthrough(data["walkthrough"], settings)
    walks = [score_walkthrough(walk, settings) for walk in data.get("walkthroughs", [])]
    if walks:  # several people, each in a store of their own; precision pooled over facts
        facts = sum(w["profile_facts"] for w in walks)
        report["walkthroughs"] = {
            "people": len(walks),
            "profile_facts": facts,
            "profile_precision": _ratio(sum(w["profile_right"] for w in walks), facts),
            "profile_recall": round(sum(w["profile_recall"] for w in walks) / len(walks), 4),
            "each": walks,
        }
    report["seconds"] = round(time.perf_counter() - started, 1)
    if not details:  # a held-out set's errors stay unseen unless asked for
        report["messages"].pop("misses")
        report["pairs"].pop("wrong")
        for walk in [report.get("walkthrough", {}), *walks]:
            walk.pop("wrong_facts", None)
    return report


def summary_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The headline figures as table rows: those of what the set holds (messages, pairs, a
    walk-through)."""
    m, p = report["messages"], report["pairs"]
    rows: list[dict[str, Any]] = []
    if m.get("messages"):
        rows += [
            {"figure": "entity precision", "value": m["entity_precision"]},
            {"figure": "entity recall", "value": m["entity_recall"]},
            {"figure": "entity precision (mentions)", "value": m["entity_precision_mentions"]},
            {"figure": "entity recall (mentions)", "value": m["entity_recall_mentions"]},
            {"figure": "saves with entities filled", "value": m["saves_with_entities"]},
            {"figure": "category accuracy", "value": m["category_accuracy"]},
            {"figure": "tags acceptable", "value": m["tags_acceptable"]},
            {
                "figure": "messages with an acceptable tag",
                "value": m["messages_with_an_acceptable_tag"],
            },
            {"figure": "fragment tags", "value": m["fragment_tags"]},
            {"figure": "intent label as first tag", "value": m["intent_label_first"]},
        ]
    if p.get("pairs"):
        rows += [
            {"figure": "merge precision", "value": p["merge_precision"]},
            {"figure": "merge recall", "value": p["merge_recall"]},
            {"figure": "attribute pairs with a node", "value": p["attribute_pairs_with_a_node"]},
        ]
    walk = report.get("walkthrough")
    if walk:
        rows.append({"figure": "profile precision", "value": walk["profile_precision"]})
        rows.append({"figure": "profile recall", "value": walk["profile_recall"]})
    walks = report.get("walkthroughs")
    if walks:
        rows.append(
            {
                "figure": f"profile precision, {walks['people']} people pooled",
                "value": walks["profile_precision"],
            }
        )
        rows.append({"figure": "profile recall, mean", "value": walks["profile_recall"]})
    return rows


def misses_text(report: dict[str, Any]) -> str:
    """The errors, one per line (for tuning on a dev set)."""
    lines = []
    for miss in report["messages"].get("misses", []):
        lines.append(
            f"{miss['text']}\n  wrong={miss['wrong']} missed={miss['missed']}\n"
            f"  tags={miss['tags']} want={miss['labelled_tags']} fragments={miss['fragments']}"
        )
    for pair in report["pairs"].get("wrong", []):
        lines.append(f"pair {pair}")
    walks = [report.get("walkthrough", {}), *report.get("walkthroughs", {}).get("each", [])]
    for walk in walks:
        for fact in walk.get("wrong_facts", []):
            lines.append(f"profile wrong: {fact}")
    return "\n".join(lines)
