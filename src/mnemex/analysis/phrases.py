"""Explicit phrases: save requests, recall requests, importance markers, and their negation.

Rules work clause by clause on a normalised text (lowercase, apostrophes dropped, punctuation as
clause breaks), so "Remember: I'm vegetarian!" and "remember that im vegetarian" read the same.
A verb like "remember" only counts as a request when it is addressed to the agent: at the start of
a clause ("Remember that ...", "Please, don't forget ...") or after "you" ("can you remember ...",
"I want you to note ..."). "how do people remember vocabulary" is neither; "do you remember what I
said" is a recall request.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# Words that may open a clause before the verb that matters ("Oh, and please remember ...").
_FILLER = (
    r"(?:(?:please|pls|plz|also|and|so|oh|ok|okay|hey|hi|btw|by the way|just|now|but|anyway|"
    r"well|then|yes|yeah|alright|right|one more thing|one last thing|quick note|again|"
    r"actually|kindly|oh and)\s+)*"
)
# "you" forms that address the agent: "can you", "i want you to", "make sure you", ...
_ASK = (
    r"(?:(?:can|could|would|will|wont|can't|cant) you (?:please |kindly |also |just )?|"
    r"(?:i (?:want|need|would like|d like)|id like) you to (?:please |also |just )?|"
    r"(?:make sure|be sure|ensure) (?:you |to |that you )?|you (?:should|must|need to|have to|"
    r"better|gotta|will|ll) (?:always |also |really )?|try to |please do |"
    # Polite and indirect forms: "would you be able to", "I'd be grateful if you could", "it
    # would make things easier if you", "could I get you to", "do me a favour and".
    r"(?:would|will) you be able to |is it possible (?:for you )?to |any chance you (?:could|can) |"
    r"(?:i|id|i would) (?:be grateful|appreciate it) if you (?:could |would )?|"
    r"it (?:would|d|will) (?:help|be (?:great|good|useful|helpful|handy)|make (?:things|life|it) "
    r"easier) if you (?:could |would )?|could i (?:ask|get) you to |do me a favou?r and )?"
)
_WH = r"(?:what|whats|when|where|who|whom|whose|how|which|why|whether|if)"
_SAVE_VERB = (
    r"(?:remember|memorize|memorise|commit (?:this |that |it )?to memory|"
    r"keep (?:this |that |it |the following )?in mind|bear (?:this |that |it )?in mind|"
    r"(?:make|take|keep) (?:a )?(?:mental )?note|note down|keep track of (?:this|that|the fact)|"
    r"write (?:this |that |it )?down|"
    r"jot (?:this |that |it )?down|remind me to|remind me (?:on|in|at|next|tomorrow))"
)

_RECORD_VERB = (
    r"(?:log|record|document|register|capture|file(?: away)?|archive|lodge|bookmark|"
    r"stash(?: away)?|retain|make (?:a )?(?:note|record)(?: of)?|take (?:a )?note(?: of)?|"
    r"note down|jot down|put down|write down|hang on to|hold on ?to|note (?:this|it) down|"
    r"(?:put|keep) (?:it |this |that )?on record|log it|"
    r"keep (?:a )?(?:record|note)(?: of)?)"
)
_RECORD_OBJECT = (
    r"that\b|this\b|these\b|the following\b|the fact\b|the decision\b|our decision\b|"
    r"my decision\b|as a decision\b|for me\b|my (?:preference|allergy|decision)\b|:"
)

_SAVE_PATTERNS = [
    # "Remember that ...", "can you remember I'm ...", not "remember what/when ...".
    re.compile(rf"^{_FILLER}{_ASK}{_SAVE_VERB}\b(?!\s+{_WH}\b)"),
    re.compile(rf"^{_FILLER}(?:do not|dont|never|you (?:must )?(?:not|never)) forget\b"),
    re.compile(rf"^{_FILLER}dont you (?:ever )?forget\b"),
    re.compile(r"\bthat you (?:always )?(?:remember|dont forget|do not forget|keep in mind)\b"),
    re.compile(
        r"\b(?:save|store|add|put|write) (?:it |this |that )?(?:to|in|into) (?:your |my )?"
        r"(?:memory|memories|notes)\b"
    ),
    re.compile(rf"^{_FILLER}{_ASK}(?:not forget|never forget)\b"),
    re.compile(r"\bnote to (?:self|yourself)\b"),
    re.compile(r"\bfor (?:future|later) reference\b|\bfor the record\b(?! player)"),
    re.compile(
        r"\b(?:save|store|record|log|keep|add|put|file) (?:this|that|it|these|the following)"
        r"(?: (?:fact|info|information|detail|preference))? (?:in|to|into|for|as) "
        r"(?:your |my |the )?(?:memory|memories|notes?|mind|later|future|next time|"
        r"long[- ]term memory|knowledge base)\b"
    ),
    re.compile(
        rf"^{_FILLER}{_ASK}(?:save|store|record|log|memorize|remember) "
        r"(?:this|that|the following|these)\s*(?::|$)"
    ),
    re.compile(rf"^{_FILLER}(?:note|remember|reminder|save|store|record|memo|important)\s*:"),
    re.compile(
        r"\b(?:add|put|write) (?:this|that|it) (?:to|in|into) (?:your |my )?"
        r"(?:memory|memories|notes)\b"
    ),
    re.compile(r"\bdont let me forget\b|\bdo not let me forget\b"),
    re.compile(r"\bso (?:that )?you (?:remember|dont forget|do not forget|can remember)\b"),
    re.compile(r"\badd (?:this |that |it )?to (?:your |my )?(?:memory|memories|notes)\b"),
    re.compile(rf"^{_FILLER}{_ASK}(?:store|memorize|memorise|record|note down) (?:my|our)\b"),
    # Verbs of recording addressed to the agent, with what to keep after them: "log that we
    # decided ...", "file this under family: ...", "make a note that ...", "hang on to this".
    re.compile(
        rf"^(?!well |ill |wed |id (?!like you)){_FILLER}{_ASK}{_RECORD_VERB}\s*(?:{_RECORD_OBJECT})"
    ),
    re.compile(
        rf"^{_FILLER}{_ASK}(?:keep|save|store|put) (?:this|that|it)\s*(?::|safe\b|on file\b|"
        r"for (?:me|later|the future)\b|somewhere\b|in (?:your )?(?:memory|mind|the back)\b)"
    ),
    re.compile(
        r"\blet the record show\b|\bfor posterity\b|\b(?:keep|have) (?:this|that|it) on file\b|"
        r"\bso (?:that )?you dont (?:forget|lose)\b|^(?:please )?dont lose (?:this|that)\b|"
        r"\b(?:mental )?note for (?:you|the future|later)\b|\breminder for you\b|"
        r"\bi want (?:this|that|it) remembered\b|\bmake sure (?:this|that|it) sticks\b|"
        r"\b(?:etch|lodge|burn) (?:this|that|it) (?:in|into) (?:your )?memory\b|"
        r"\bkeep (?:this|that|it )?in mind (?:for|going forward)\b|"
        r"\b(?:put|add|write) (?:it |this |that )?(?:down )?(?:in|to|into) (?:your|my) "
        r"(?:notes|file|records)\b"
    ),
    re.compile(
        r"^(?:for the minutes|please minute|minute that|note for the log)\b|"
        r"\bmark (?:this|that|it) down\b|\bnote (?:it|this|that) down\b|"
        r"\badd (?:this|that|it) to the (?:decision )?(?:log|minutes|record)\b|"
        r"\b(?:chuck|stick|pop|put|throw|drop) (?:this|that|it) (?:in|into) (?:your )?memory\b|"
        r"\b(?:save|store|record|keep) the fact\b|\bofficially (?:record|note|log)\b|"
        r"\bput (?:it|this|that) (?:on|in) the (?:record|file|log)\b|"
        r"\bkeep hold of (?:this|that)\b|\bdont (?:ever )?forget (?:this|that)\b|"
        r"\b(?:would you mind|could you|can you|if you could) (?:remembering|keep in mind|"
        r"keeping in mind|bear in mind|remember that)\b"
    ),
    # A heading that files what follows: "Memory: ...", "Pin this: ...", "Store a preference:
    # ...", "Context to keep for all our chats: ...".
    re.compile(
        rf"^{_FILLER}(?:memory|pin|(?:save|store|pin|keep|log|file|note|remember|add) "
        r"(?:this|that|it|these|a|an|the following)\b[^:]{0,40}|(?:a bit of |some )?"
        r"(?:context|background|info|details?|something) (?:to|you should|for you to) "
        r"(?:keep|remember|store|save|retain)\b[^:]{0,40})\s*:"
    ),
    # The whole message a keeping verb and what it points at: "note it", "pin that", "save it
    # pls", "hang onto that".
    re.compile(
        rf"^{_FILLER}{_ASK}(?:log|note|keep|pin|file|save|store|record|remember|hang on ?to|"
        r"hold on ?to|jot|write) (?:it|this|that)(?: down)?"
        r"(?: (?:for me|please|pls|too|for later))*$"
    ),
    re.compile(
        r"\b(?:i want|i need|id like|i would like|id love|i would love) you to (?:remember|retain|"
        r"keep|store|save|note|log|record|hold on ?to|hang on ?to|memori[sz]e|keep track of)\b"
    ),
    re.compile(
        r"^(?:would you |do you |could you )?mind (?:remembering|noting|jotting|writing|keeping|"
        r"storing|saving|recording|logging|making a note|adding|pinning|filing)\b"
    ),
    re.compile(
        r"\bif you (?:could |would |can )?(?:stored|saved|noted|recorded|kept|remembered|logged) "
        r"(?:my|our|this|that|it|the fact)\b[^?]*$"
    ),
    re.compile(r"\b(?:and|then) (?:please )?(?:remember|note|save|store|log) (?:it|this|that)\s*$"),
    # What it is kept for: "just so you know for next time", "worth knowing for later",
    # "carry this forward into future sessions", "as a permanent setting".
    re.compile(
        r"^(?!.*\b(?:dont|do not|never|not|ill|i will)\b).*(?:"
        r"\bso you know (?:for (?:next time|later|the future)|going forward)\b|"
        r"\b(?:worth|good to) (?:knowing|know|remembering) (?:for (?:later|next time|the future)|"
        r"going forward)\b|\b(?:for|into|across|in) (?:all )?(?:future|our|later|other) "
        r"(?:chats|conversations|sessions)\b|\bas (?:a|my|our) (?:permanent|standing|default) "
        r"(?:setting|rule|instruction|preference)\b)"
    ),
    # What the agent keeps for the user: a saved setting, a list it keeps, its notes.
    re.compile(
        rf"^{_FILLER}{_ASK}(?:save|store|set|keep|update|change|swap|switch|overwrite|replace|"
        r"make) (?:my|our) (?:saved|stored|default|preferred|usual|go-to|go to)\b"
    ),
    re.compile(
        rf"^{_FILLER}{_ASK}(?:update|change|replace|swap|overwrite|add|put|tick off|set|correct|"
        r"fix|mark)\b.*\b(?:you(?:ve| have)(?: got)? (?:stored|saved|on file|noted)|"
        r"(?:in|from|on|to) (?:your|the) (?:notes|memory|records)|you(?:re| are) keeping)\b"
    ),
    re.compile(
        rf"^{_FILLER}{_ASK}(?:add|put|pop|stick|take|remove|tick|cross|strike|mark)\b.{{0,60}}\b"
        r"(?:to|on|onto|off|from|in) (?:my|our) (?:[\w-]+ ){0,3}(?:list|log|checklist|tracker|"
        r"diary|journal)\b"
    ),
    re.compile(
        rf"^{_FILLER}{_ASK}keep (?:a )?(?:running )?(?:list|log|tally|record) (?:of|for)\b|"
        rf"^{_FILLER}{_ASK}keep track of (?:which|what|my|our|all|every|how)\b"
    ),
]
# Reported speech quotes a request, it does not make one: "remember the Alamo, as they say",
# "make a note of the chords, that's what the teacher said".
_REPORTED = re.compile(
    r"\bas they say\b|\b(?:is|was|thats|that is) what (?:\w+ ){0,4}(?:always )?"
    r"(?:says|said|say|tells me|told me)\b"
)
# An instruction about the task at hand ("remember to handle the null case in this function",
# "don't forget the semicolon") is not a request to keep something, unless it states a fact
# ("remember that this function is called by cron").
_TASK = re.compile(
    r"\b(?:this|the|that|your) (?:function|method|code|file|line|query|script|class|test|tests|"
    r"snippet|loop|variable|semicolon|semicolons|bracket|brackets|import|imports|answer|response|"
    r"reply|output|diff|commit|pr|regex|type hints?|edge cases?|null case|error handling|"
    r"indentation|complexity|time complexity)\b|\bwhen you (?:answer|reply|write|respond|code|"
    r"implement|refactor|fix)\b|\bin your (?:answer|reply|response|code)\b"
)
_STATES_A_FACT = re.compile(r"\b(?:that|:)\s|:$")

_RECALL_PATTERNS = [
    re.compile(r"\b(?:do|did) you (?:still |even |by any chance )?(?:remember|recall|recollect)\b"),
    re.compile(
        rf"\b(?:can|could|would|will) you (?:still |even |please )?(?:remember|recall) {_WH}\b"
    ),
    re.compile(r"\b(?:can|could|would|will) you (?:still |even |please )?recall\b"),
    re.compile(r"\byou remember (?:what|when|where|who|which|how|whether|if|my|our|the)\b.*\?"),
    re.compile(rf"^{_FILLER}(?:remember|recall) {_WH}\b"),
    re.compile(rf"^{_FILLER}(?:remember|recall) (?:my|our|the|that)\b.*\?\s*$"),
    re.compile(
        r"\bwhat (?:did|have|had) (?:i|we) (?:ever |already |just )?(?:tell|told|say|said|"
        r"mention|mentioned|decide|decided|agree|agreed|discuss|choose|pick|settle|"
        r"note|share|shared)\b"
    ),
    re.compile(
        r"\b(?:did|have|had) (?:i|we) (?:ever |already )?(?:tell|told|mention|mentioned|"
        r"say|said|share|shared|talk|talked|discuss|discussed)\b.*\?"
    ),
    re.compile(
        r"\bremind me(?: again)?(?: (?:of|what|about|when|where|who|how|which|whats|whether|"
        r"if|the|my|our)\b|\s*$)"
    ),
    re.compile(r"\b(?:what|when|where|who|which|how) (?:is|was|were|are|s|re) (?:my|our)\b"),
    re.compile(r"\bwhats (?:my|our)\b"),
    re.compile(r"\bwhat do you (?:know|remember|have) (?:about|on)\b"),
    re.compile(r"\bwhat (?:have|do) you (?:got|stored|saved|noted) (?:about|on|for)\b"),
    re.compile(r"\b(?:look up|search|check) (?:my|your|our) (?:notes|memory|memories)\b"),
    re.compile(r"\b(?:did|do) (?:you|we) (?:save|store|note|write down|record)\b"),
    re.compile(r"\b(?:refresh|jog) my memory\b"),
    re.compile(r"\b(?:i|we) (?:told|mentioned|said|discussed)\b.*\?"),
]

# A negation cancels a save request in its clause: "no need to remember this".
_NEGATION_PATTERNS = [
    re.compile(
        r"\b(?:no need|dont need|do not need|dont have|do not have|not necessary|"
        r"no reason|unnecessary|needless|you neednt|you dont need|you do not need) to "
        r"(?:remember|memorize|memorise|save|store|note|record|write|keep|log)\b"
    ),
    re.compile(
        r"\b(?:dont|do not|never|please dont|no need to|not) (?:bother (?:to )?)?"
        r"(?:remember|memorize|memorise|save|store|record|note|write down|log|keep) "
        r"(?:this|that|it|any of this|anything)\b"
    ),
    re.compile(r"\bdont bother (?:remembering|saving|noting|recording|storing)\b"),
    re.compile(r"\byou can forget (?:this|that|it|about)\b"),
    re.compile(r"\bnot worth (?:remembering|saving|noting|storing|keeping)\b"),
    re.compile(r"\boff the record\b"),
    # Not for later, or out of what is kept: "don't carry this into future chats", "remove my
    # old number from your memory".
    re.compile(
        r"\b(?:dont|do not|never) (?:carry|bring|take|keep|save|store) "
        r"(?:this|that|it|any of this) (?:into|in|to|for|across)\b"
    ),
    re.compile(
        r"\b(?:remove|delete|erase|wipe|drop|scrap|clear|take) .{0,50}\b(?:from|out of|off) "
        r"(?:your )?(?:memory|memories|notes)\b"
    ),
]
# "Forget it" alone dismisses the message; followed by new content it is a correction
# ("scratch that, the meeting is at 4"), which is worth saving.
_DISMISSAL = re.compile(
    rf"^{_FILLER}(?:(?:forget|ignore|disregard|scratch) (?:about )?(?:this|that|it|what i "
    r"(?:just )?said|everything)|never ?mind|nevermind)\b"
)

# Importance keywords and their strength boost; the strongest one found counts.
_BOOSTS: list[tuple[re.Pattern[str], float]] = [
    (re.compile(r"(?<!\bi )(?<!\bwe )\b(?:never|dont ever|do not ever) forget\b"), 0.5),
    (
        re.compile(r"\b(?:critical|crucial|vital|life or death|top priority|highest priority)\b"),
        0.5,
    ),
    (re.compile(r"\b(?:extremely|super|incredibly|really|very|so|absolutely) important\b"), 0.45),
    (re.compile(r"\b(?:essential|must not|mustnt|under no circumstances)\b"), 0.4),
    (re.compile(r"\b(?:important|importantly|urgent|high priority|priority|matters a lot)\b"), 0.3),
    (re.compile(r"\b(?:must|always remember|remember forever|key point|make sure)\b"), 0.2),
]
_DAMPERS: list[tuple[re.Pattern[str], float]] = [
    (
        re.compile(
            r"\b(?:not|isnt|nothing|hardly) (?:that |very |really |super |too )?"
            r"(?:important|critical|urgent|crucial)\b"
        ),
        -0.3,
    ),
    (
        re.compile(
            r"\b(?:unimportant|trivial|low priority|doesnt matter|not a big deal|"
            r"no big deal|minor detail)\b"
        ),
        -0.3,
    ),
    (re.compile(r"\b(?:just so you know|fyi|by the way|btw|in passing|minor)\b"), -0.1),
]
# "not important" must not count as the marker "important".
_NEGATED_IMPORTANCE = re.compile(
    r"\b(?:not|isnt|nothing|hardly) (?:that |very |really |super |too )?"
    r"(?:important|critical|urgent|crucial)\b"
)

# A phrase right after a first-person or third-person subject narrates, it does not ask:
# "I'll keep it in mind", "people write it down".
_SPEAKER = re.compile(
    r"\b(?:i|ill|id|ive|im|we|weve|well|wed|they|he|she|people|i will|we will|i would|i can|"
    r"i could|i should|i must|i always|i never|i usually|i often|i try to|we try to)\s*$"
)
_BREAKS = re.compile(r"[.!;\n\r\t|]+|,|(?<!\w)-(?!\w)|—|–")
_SPACES = re.compile(r"\s+")
_OTHER = re.compile(r"[^\w\s:?|]")


@dataclass(slots=True)
class Phrases:
    """What the explicit phrases of a message say."""

    save_request: bool = False
    recall_request: bool = False
    importance_marker: bool = False
    negated: bool = False
    boost: float = 0.0
    matches: list[str] = field(default_factory=list)


def normalize(text: str) -> str:
    """Lowercase, apostrophes dropped, clause breaks as '|', question marks kept."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = folded.replace("’", "").replace("'", "").replace("`", "").replace("‘", "")
    folded = _BREAKS.sub(" | ", folded)
    folded = re.sub(r"\?+", " ? | ", folded)
    folded = _OTHER.sub(" ", folded)
    return _SPACES.sub(" ", folded).strip()


def clauses(text: str) -> list[str]:
    """The normalised clauses of a message; a question's clause keeps its trailing '?'."""
    return [c.strip() for c in normalize(text).split("|") if c.strip()]


def _first(patterns: list[re.Pattern[str]], clause: str) -> str | None:
    for pattern in patterns:
        for found in pattern.finditer(clause):
            if not _SPEAKER.search(clause[: found.start()]):
                return found.group(0).strip()
    return None


def _strongest(norm: str) -> tuple[float, str | None]:
    best, label = 0.0, None
    cleaned = _NEGATED_IMPORTANCE.sub(" ", norm)
    for pattern, boost in _BOOSTS:
        found = pattern.search(cleaned)
        if found and boost > best:
            best, label = boost, found.group(0)
    if best > 0:
        return best, label
    for pattern, boost in _DAMPERS:
        found = pattern.search(norm)
        if found and boost < best:
            best, label = boost, found.group(0)
    return best, label


def detect(text: str) -> Phrases:
    """Save, recall and importance phrases of one message (negation-aware)."""
    result = Phrases()
    parts = clauses(text)
    for index, clause in enumerate(parts):
        negation = _first(_NEGATION_PATTERNS, clause)
        dismissal = _DISMISSAL.search(clause)
        if dismissal and index + 1 == len(parts):
            negation = dismissal.group(0).strip()
        elif dismissal:
            result.matches.append(f"correction: {dismissal.group(0).strip()}")
            continue
        if negation:
            result.negated = True
            result.matches.append(f"negation: {negation}")
            continue
        recall = _first(_RECALL_PATTERNS, clause)
        if recall:
            result.recall_request = True
            result.matches.append(f"recall: {recall}")
            continue
        save = _first(_SAVE_PATTERNS, clause)
        # A bare "remember," takes its content from the next clause.
        scope = clause if save != clause else " ".join(parts[index : index + 2])
        if save and _TASK.search(scope) and not _STATES_A_FACT.search(scope):
            result.matches.append(f"task instruction: {save}")
            continue
        if save and _REPORTED.search(" ".join(parts)):
            result.matches.append(f"reported speech: {save}")
            continue
        if save:
            result.save_request = True
            result.matches.append(f"save: {save}")
    boost, label = _strongest(" ".join(parts))
    result.boost = boost
    result.importance_marker = boost > 0
    if label:
        result.matches.append(f"importance: {label}")
    return result
