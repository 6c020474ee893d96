"""Statements that take a value back: "Alice doesn't use Vim anymore", "I left Google", "Sam and
I split up", "my editor is no longer Vim", "I'm not allergic to penicillin after all". Read by
ledger/extract.py before the statement patterns of ledger/patterns.py, with their parts."""

from __future__ import annotations

import re

from mnemex.ledger.patterns import NAMED, REL, SUBJ, VAL
from mnemex.text import UPPER

NEGATIONS = [
    re.compile(
        rf"^{SUBJ}\s+(?:(?:is\s+|am\s+|are\s+)?no\s+longer|doesn't|does\s+not|don't|do\s+not|isn't"
        r"|is\s+not|am\s+not)"
        rf"\s+(?:use|uses|using|work\s+(?:at|for)|live\s+in|run\s+on|on|allergic\s+to)\s+{VAL}$"
    ),
    re.compile(
        rf"^{SUBJ}\s+(?:has\s+|have\s+)?(?:stopped|quit|dropped|abandoned)\s+(?:using\s+)?"
        # not "dropped memoQ for Phrase TMS": one value for another, a change
        rf"(?![^,;]*\s(?:for|in\s+favou?r\s+of)\s+(?:the\s+)?\w*[{UPPER}]){VAL}$"
    ),
    re.compile(  # verbs that leave a named thing ("left Google", not "gave up Vim for Zed")
        rf"^{SUBJ}\s+(?:has\s+|have\s+|am\s+|is\s+|are\s+)?(?:left|leaving|quitting"
        rf"|cancell?ed|sold|gave\s+up(?:\s+on)?"
        rf"|given\s+up(?:\s+on)?|got\s+rid\s+of|moved\s+out\s+of|moved\s+away\s+from)"
        rf"\s+(?:(?:the|my|his|her|their)\s+)?(?P<val>{NAMED})$"
    ),
    # "Gave the Focus to my brother", "sold the Leaf on": a thing handed to someone else
    re.compile(
        rf"^{SUBJ}\s+(?:has\s+|have\s+)?(?:sold|gave|given|passed)\s+"
        rf"(?:(?:the|my|his|her|their|our)\s+)?(?P<val>{NAMED})\s+(?:away|on|to\s+[^,;]{{1,40}})$"
    ),
    # "Sam and I split up in March", "I broke up with Sam": the partner is gone
    re.compile(
        rf"^(?P<val>{NAMED})\s+and\s+(?P<my>I)\s+(?:have\s+)?(?:finally\s+)?(?:split\s+up|"
        r"broke\s+up|separated|divorced|got\s+divorced)\b[^,;]{0,40}$"
    ),
    re.compile(
        r"^(?P<my>I)\s+(?:have\s+)?(?:split\s+up|broke\s+up|separated)\s+(?:with|from)\s+"
        rf"(?P<val>{NAMED})\b[^,;]{{0,40}}$"
    ),
    re.compile(rf"^{SUBJ}(?:'s|’s)\s+{REL}\s+is\s+(?:no\s+longer|not)\s+{VAL}$"),
    re.compile(rf"^(?P<my>my)\s+{REL}\s+is\s+(?:no\s+longer|not)\s+{VAL}$", re.I),
]
