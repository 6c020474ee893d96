"""Generate the intent training set: templates x slot fillers + hand-written examples.

    python training/intent/generate.py   # writes training/intent/train.jsonl

Deterministic (seeded). Each example carries its template id so train.py can hold out whole
templates as a dev split. None of these templates comes from the held-out test set
(bench/data/activation_test.txt), which was written separately and is never read here.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20260101
PER_TEMPLATE = 12

SLOTS: dict[str, list[str]] = {
    "person": "Amara|Bjorn|Chen|Diego|Elif|Fatima|Gustavo|Hiroshi|Ines|Jamal|Kofi|Lena|Mateo|"
    "Nadia|Oscar|Paulo|Quinn|Rosa|Sanjay|Tariq|Uma|Viktor|Wen|Yara|Zoe|Aisha|Ben|Carmen|"
    "Dmitri|Emeka|Freya|Gita|Hugo|Ivan|Julia|Kenji|Leila|Mikko|Noor|Omar".split("|"),
    "relative": "brother|sister|mum|dad|wife|husband|partner|son|daughter|cousin|aunt|uncle|"
    "grandfather|grandma|best friend|neighbour|boss|flatmate".split("|"),
    "food": "mushrooms|olives|sushi|dark chocolate|spicy ramen|goat cheese|oysters|avocado|"
    "liquorice|black coffee|green tea|tofu|lamb|pineapple on pizza|raw onions|eggplant".split("|"),
    "tool": "Neovim|Emacs|VS Code|PyCharm|Sublime Text|IntelliJ|Zed|Nano|Xcode|Notepad++".split(
        "|"
    ),
    "lang": "Python|Rust|TypeScript|Go|Kotlin|Elixir|Java|C#|Ruby|Haskell|Scala|Swift".split("|"),
    "db": "PostgreSQL|MySQL|SQLite|MongoDB|Redis|Cassandra|DynamoDB|ClickHouse".split("|"),
    "framework": "React|Vue|Django|FastAPI|Rails|Spring Boot|Svelte|Flask|Laravel|Angular".split(
        "|"
    ),
    "cloud": "AWS|Azure|Google Cloud|Hetzner|DigitalOcean|Fly.io|Vercel|Linode".split("|"),
    "city": "Lagos|Oslo|Kyoto|Lima|Austin|Dublin|Krakow|Hanoi|Perth|Seville|Tbilisi|Quito|"
    "Ghent|Manila|Cape Town|Vancouver".split("|"),
    "org": "Acme|Globex|Initech|Umbrella Labs|Northwind|Contoso|Hooli|Vandelay|Wayne Corp|"
    "Stark Industries|Tyrell".split("|"),
    "project": "Atlas|Falcon|Nimbus|Orion|Phoenix|Quartz|Sparrow|Tundra|Juniper|Kestrel".split("|"),
    "day": "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday".split("|"),
    "date": "March 3|the 12th|next Tuesday|April 20|the end of the month|Q2|the first week of May|"
    "August 30|New Year's Eve|the 5th of June".split("|"),
    "time": "8am|9:30|noon|2pm|3:45|5 o'clock|half past ten|6pm".split("|"),
    "hobby": "bouldering|sourdough baking|chess|birdwatching|salsa dancing|cycling|knitting|"
    "trail running|woodworking|photography".split("|"),
    "thing": "bike|laptop|flat|guitar|camera|car|phone|desk|dog|garden".split("|"),
    "role": "product manager|backend engineer|designer|data analyst|SRE|team lead|CTO|"
    "recruiter|QA engineer|architect".split("|"),
    "topic": "the migration|the pricing page|the onboarding flow|the API redesign|the offsite|"
    "the hiring plan|the security audit|the mobile release|the data pipeline|the rebrand".split(
        "|"
    ),
    "number": "42|7|1500|3|250|12|90|64|30|18".split("|"),
    "color": "teal|orange|navy|crimson|olive|charcoal|lavender".split("|"),
    "hello": "hi|hello|hey|hiya|howdy|good morning|morning|good evening|hey there|greetings|"
    "hi again|hello there".split("|"),
    "thanks": "thanks|thank you|cheers|many thanks|thx|ty|much appreciated|thanks a bunch|"
    "thank you very much".split("|"),
    "bye": "bye|goodbye|see ya|see you|later|take care|talk soon|ciao|bye for now|"
    "have a good one".split("|"),
    "gen_topic": "photosynthesis|the French revolution|black holes|compound interest|"
    "recursion|inflation|vaccines|the stock market|machine learning|climate change".split("|"),
    "task": "parse JSON in Go|center a div|sort a dict by value in Python|write a cron job|"
    "rebase a branch|profile slow SQL queries|read a CSV with pandas|set up SSH keys|"
    "debounce a function in JavaScript|convert a PDF to text".split("|"),
}

TEMPLATES: dict[str, list[str]] = {
    "SAVE_PREFERENCE": [
        "I prefer {tool} to anything else for editing",
        "i'm not into {food} at all",
        "{food} is something I really enjoy",
        "I'd rather not have calls on {day}s",
        "my favourite language to write is {lang}",
        "I love {hobby}, it's how I unwind",
        "please don't ever give me {food}, I dislike it",
        "{person} likes to get updates by text message",
        "{person} would much rather pair program than review PRs",
        "I tend to choose {db} for side projects",
        "keep your replies brief, I like concise answers",
        "I really can't bear {food}",
        "whenever possible use {lang} for examples",
        "I'm a huge fan of {framework}",
        "my preference is {cloud} for hosting",
        "I like my meetings in the afternoon, never before {time}",
        "{color} is my favourite colour",
        "i hate it when code has no type hints",
        "Please format dates as day/month/year for me",
        "I find {tool} much more comfortable than the alternatives",
        "{person} is picky, she only drinks {food}",
        "the kids love {food} but hate broccoli",
        "I'd like explanations with examples, not theory",
        "personally I think {framework} is the nicest to work with",
        "my partner and I are both into {hobby}",
        "I'm lactose intolerant so skip anything with dairy",
        "I generally avoid {food}",
        "not a morning person, I work best late at night",
        "I always go for the window seat",
        "we prefer squash merges over merge commits",
        "{person} enjoys {hobby} on weekends",
        "use snake_case for all my variable names",
        "I'm vegan, so no animal products in recipes please",
        "spreadsheets make me happy, I love {tool} less",
        "I want short commit messages, one line max",
        "honestly {lang} is my least favourite language",
        "I'd always pick {city} for a holiday",
        "I like to be called by my nickname",
        "{food} is my go-to when I'm tired",
        "nothing beats {hobby} on a sunday",
        "{tool} over {tool2} any day",
        "I'm really into {hobby} lately",
        "{framework} works best for me",
        "I can't live without {tool}",
        "not a big fan of {food}",
        "I'm more of a {hobby} person",
        "{food} drives me crazy, avoid it",
        "I always ask for {food} when we eat out",
        "{lang} for me, please, whenever there's a choice",
        "I find {tool} annoying to use",
        "I'm a sucker for {food}",
        "{person} can't stand {food}",
        "{person} is really into {hobby}",
        "{person}'s favourite food is {food}",
        "the kids prefer {food} for dinner",
        "{color} looks best on the slides, use it",
    ],
    "SAVE_DECISION": [
        "we decided to go with {db} for the new service",
        "the team agreed to use {framework} on the frontend",
        "I've decided to move to {city} in the autumn",
        "we're going to launch {project} on {date}",
        "{person} and I agreed to meet every {day}",
        "the final decision is {cloud} for hosting",
        "after some debate we chose {lang} for the CLI",
        "we will stop using {tool} across the team",
        "I'm going to buy the {color} {thing}",
        "it's settled: the offsite will be in {city}",
        "we picked {person} as the new {role}",
        "going forward we'll deploy on {day}s only",
        "management approved {project}, we start on {date}",
        "we've opted for {db} over the alternatives",
        "let's go with the second proposal for {topic}",
        "I'll take the {role} offer from {org}",
        "we're sunsetting {project} at {date}",
        "our plan is to rewrite the backend in {lang}",
        "we concluded that {topic} gets postponed to {date}",
        "we're switching the whole team to {tool} starting {date}",
        "{org} chose us as their vendor, we signed today",
        "the committee voted to hold meetings at {time}",
        "ok, I've made the call: {framework} it is",
        "I have resolved to do {hobby} three times a week",
        "we'll freeze the code on {day} before the release",
        "decided: no more deploys after {time} on Fridays",
        "the group settled on {city} for the reunion",
        "I'm committing to learning {lang} this year",
        "we're adopting trunk-based development from now on",
        "{person} decided to hand over {topic} to the new hire",
        "we agreed on a budget of {number} thousand for {topic}",
        "I chose to rent rather than buy in {city}",
        "we will hire a {role} before {date}",
        "let's make {db} the default for every new project",
        "conclusion of the meeting: {topic} ships on {date}",
    ],
    "SAVE_FACT": [
        "my {relative} lives in {city}",
        "{person} works at {org} as a {role}",
        "{person} is the {role} on {project}",
        "the {project} service runs on {cloud}",
        "our database is {db}",
        "I have a {thing} that is {number} years old",
        "my {relative}'s name is {person}",
        "{person} is my {relative}",
        "the wifi at the office is slow on {day}s",
        "{project} is written in {lang}",
        "I'm a {role} at {org}",
        "my {relative}'s birthday is on {date}",
        "the deadline for {topic} is {date}",
        "{person} speaks three languages",
        "we have {number} people on the team",
        "my gym class is every {day} at {time}",
        "{person} reports to {person2}",
        "I grew up in {city}",
        "{org} is our biggest customer",
        "the staging environment uses {db} too",
        "{person} manages {project}",
        "{person} built the first version of {project}",
        "the meeting room is on the third floor",
        "my flight to {city} leaves at {time} on {date}",
        "I've been doing {hobby} for {number} years",
        "{person} has a dog called Biscuit",
        "my student loan is paid off in {date}",
        "the server's IP is 192.168.1.{number}",
        "{person} is a {role} with {number} years of experience",
        "the {thing} warranty runs until {date}",
        "{project} depends on {db} and {framework}",
        "{person} leads the {project} team",
        "we use {tool} for code reviews",
        "I'm {number} years old",
        "the API key rotates every {number} days",
        "my {relative} is allergic to cats",
        "{person} owns the {project} repository",
        "{person} joined {org} last {day}",
    ],
    "RECALL_INFO": [
        "what did I say about {topic}?",
        "do you remember {person}'s role?",
        "which {thing} did I tell you I bought",
        "where does my {relative} live again?",
        "what's the name of my {relative}?",
        "remind me what we decided for {topic}",
        "what database did we pick for {project}?",
        "when is my {relative}'s birthday?",
        "did I mention what {person} does?",
        "what do you have on {project}?",
        "who was the {role} we hired?",
        "which city did I say I grew up in",
        "what was the deadline for {topic} again",
        "can you recall what {person} told me",
        "what time is my gym class?",
        "what did we agree on with {org}?",
        "what are my food preferences?",
        "have I told you which editor I use?",
        "what was the budget we agreed for {topic}?",
        "who does {person} report to?",
        "remind me who owns {project}",
        "what do you know about my {relative}?",
        "how many people did I say are on the team",
        "which framework did the team choose?",
        "what did I tell you about {person}",
        "when does my flight to {city} leave?",
        "what's my favourite colour?",
        "look up my notes on {topic}",
        "did we ever decide on the hosting?",
        "what language is {project} written in, did I say?",
        "do you know where I keep my {thing} warranty info",
        "what were my notes about {org}?",
        "I forget, what is {person}'s job?",
        "you remember the plan for {topic}, right?",
        "what did I say I'm allergic to",
        "which {thing} do I own?",
        "who's my {relative} again",
        "how old is my {thing}?",
        "where do I keep the {thing} warranty?",
        "when did I start {hobby}?",
        "did we ever settle {topic}?",
        "what's the name of the {role} at {org}?",
        "which day is my gym class on?",
        "what does {person} prefer for updates?",
        "which {db} version are we on for {project}?",
        "what food does my {relative} hate?",
        "how many years have I been doing {hobby}",
    ],
    "UPDATE_INFO": [
        "actually my {relative} moved to {city}",
        "correction: {person} is now a {role}",
        "I don't use {tool} anymore, I switched to {tool2}",
        "update: the deadline for {topic} moved to {date}",
        "we changed our minds, {db} instead of {db2}",
        "{person} left {org} and joined {org2}",
        "my new address is {number} Elm Street",
        "scratch that, the meeting is at {time} now",
        "I no longer eat {food}",
        "change of plans: {project} launches on {date} instead",
        "forget what I said earlier, we're using {framework2} not {framework}",
        "the gym class moved from {day} to {day2}",
        "{person} is no longer on {project}",
        "I got a new {thing}, the old one broke",
        "my number has changed, the new one ends in {number}",
        "{project} was renamed to {project2}",
        "I was wrong before: {person} reports to {person2}",
        "it's {cloud2} now, we migrated off {cloud}",
        "my {relative} doesn't live in {city} anymore",
        "the budget for {topic} went up to {number} thousand",
        "small correction, it's {date} not {date2}",
        "as of today I'm working at {org2}",
        "{person} took over {project} from {person2}",
        "please update my preferred editor to {tool}",
        "my favourite colour is {color2} now, not {color}",
        "I used to love {food} but not anymore",
        "edit: the flight leaves at {time} instead",
        "we've since moved {project} to {lang2}",
        "not {day} any more, standup is on {day2}",
        "I quit {hobby}, I'm doing {hobby2} now",
        "{person} got promoted to {role}",
        "the server moved, new IP is 10.1.0.{number}",
        "turns out {topic} is delayed until {date}",
        "replace my old email with the work one",
    ],
    "QUESTION": [
        "how do I {task}?",
        "can you show me how to {task}",
        "what is {gen_topic}?",
        "explain {gen_topic} in simple terms",
        "why does {gen_topic} matter?",
        "what's the difference between {lang} and {lang2}?",
        "is {db} good for analytics workloads?",
        "which is better for a beginner, {framework} or {framework2}?",
        "how long does it take to learn {lang}?",
        "what are good tips for {hobby}?",
        "how do you remember so many facts?",
        "what's the weather usually like in {city} in winter?",
        "give me three ideas for a birthday gift",
        "write a short poem about {gen_topic}",
        "summarize the history of {gen_topic}",
        "what does this error mean: index out of range",
        "how many ounces are in a pound?",
        "recommend a podcast about {gen_topic}",
        "how do memory palaces work?",
        "can you translate this sentence into French?",
        "what is the population of {city}?",
        "how should I prepare for a {role} interview?",
        "is it worth using {cloud} for a small startup?",
        "what's a healthy dinner I can cook in 20 minutes?",
        "how do I keep my {thing} in good condition?",
        "draft an email asking for a deadline extension",
        "what are the pros and cons of {db}?",
        "why is my {lang} program so slow?",
        "help me name a new project",
        "how can students memorize formulas faster?",
        "what year did the Berlin wall fall?",
        "list some good books on {gen_topic}",
        "should I store timestamps in UTC?",
        "how do I remember to drink more water?",
        "what's the best way to learn {hobby}?",
        "can you check this SQL query for mistakes?",
    ],
    "GREETING": [
        "hi",
        "hello!",
        "hey {person}",
        "good morning",
        "good afternoon!",
        "evening",
        "thanks",
        "thank you so much",
        "thanks a lot, that helped",
        "cheers",
        "bye",
        "goodbye, talk soon",
        "see you tomorrow",
        "have a nice day",
        "hey there",
        "what's up?",
        "how are you doing today?",
        "nice, thank you!",
        "great work, thanks",
        "hello again",
        "morning all",
        "yo",
        "hi hi",
        "g'day",
        "ciao!",
        "catch you later",
        "appreciate it",
        "lovely, thanks",
        "good night",
        "hey, hope you're doing well",
        "that's all, thanks!",
        "many thanks",
        "hola",
        "welcome back",
        "awesome, cheers!",
        "{hello} {person}",
        "{hello}, how are you?",
        "{thanks}!",
        "{thanks}, {bye}",
        "{bye} {person}",
        "{hello}! hope all is well",
        "{thanks}, that's exactly what I needed",
        "ok {thanks}",
        "{hello}, good to be back",
        "{bye}, have a great evening",
    ],
}

# Prefixes that must not change the intent: the classifier learns the content, not the request.
PREFIXES = [
    "remember that ",
    "please remember ",
    "note to self: ",
    "don't forget, ",
    "for future reference, ",
    "keep in mind that ",
    "fyi ",
    "btw ",
    "oh and ",
    "just so you know, ",
    "by the way, ",
    "",
]
SAVE_CLASSES = {"SAVE_PREFERENCE", "SAVE_DECISION", "SAVE_FACT", "UPDATE_INFO"}
_SLOT = re.compile(r"\{(\w+?)(2?)\}")


def fill(template: str, rng: random.Random) -> str:
    """The template with each slot filled; "{x2}" differs from "{x}"."""
    chosen: dict[str, str] = {}

    def pick(match: re.Match[str]) -> str:
        name, second = match.group(1), match.group(2)
        options = SLOTS[name]
        taken = chosen.get(name if second else f"{name}2")
        options = [o for o in options if o != taken] or options
        value = rng.choice(options)
        chosen[f"{name}2" if second else name] = value
        return value

    return _SLOT.sub(pick, template)


def vary(text: str, rng: random.Random) -> str:
    """Surface noise: capitalisation, punctuation, a dropped apostrophe."""
    roll = rng.random()
    if roll < 0.3:
        text = text[0].upper() + text[1:]
    elif roll < 0.4:
        text = text.lower()
    if rng.random() < 0.3 and not text.endswith(("?", "!", ".")):
        text += rng.choice([".", "!", ""])
    if rng.random() < 0.15:
        text = text.replace("'", "")
    return text


def generate(seed: int = SEED) -> list[dict[str, str]]:
    """Every generated example: text, intent, template id."""
    rng = random.Random(seed)
    rows = []
    for intent, templates in TEMPLATES.items():
        for index, template in enumerate(templates):
            seen: set[str] = set()
            for _ in range(PER_TEMPLATE):
                text = fill(template, rng)
                if intent in SAVE_CLASSES and rng.random() < 0.25:
                    text = rng.choice(PREFIXES) + text
                text = vary(text, rng)
                if text not in seen:
                    seen.add(text)
                    rows.append({"text": text, "intent": intent, "template": f"{intent}:{index}"})
    return rows


def handwritten() -> list[dict[str, str]]:
    """Hand-written examples (handwritten.txt: INTENT | text), each its own template."""
    rows = []
    path = HERE / "handwritten.txt"
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        intent, text = (part.strip() for part in line.split("|", 1))
        rows.append({"text": text, "intent": intent, "template": f"hand:{number}"})
    return rows


def main() -> None:
    """Write train.jsonl and print the count per intent."""
    rows = generate() + handwritten()
    out = HERE / "train.jsonl"
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["intent"]] = counts.get(row["intent"], 0) + 1
    print(f"{len(rows)} examples -> {out}")
    for intent, count in sorted(counts.items()):
        print(f"  {intent:16} {count}")


if __name__ == "__main__":
    main()
