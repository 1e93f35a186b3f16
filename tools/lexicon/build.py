"""Build ``verbs.json``, ``persons.json``, ``irregular.json`` and ``nouns.json.gz`` from a WordNet 3.0 ``dict`` folder
(its ``index.verb``, ``verb.exc``, ``index.noun`` and ``data.noun``).

    python -m satiate.tools.lexicon.build /path/to/wordnet/dict

Run once by a maintainer; the package ships the result, so nothing is fetched or built at run time. It keeps, for each
verb, only its most frequent senses (WordNet lists a word's senses by frequency), and of those only the synsets
that hold at least two words: the relation paraphrases a reader needs ("established" for "founded", "wed" for
"married"), not every rare sense a word can have. Of the nouns it keeps those whose most frequent sense is a kind of
person ("clergyman", "nurse", "member"; not "firm" or "band"): what "which nurse ...?" asks for is a person. And
it keeps the noun hierarchy itself (one-word common nouns, their senses, each sense's hypernyms), gzipped: which
plain nouns are of the kind a question asks ("navy" is a colour).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import snowballstemmer

from satiate.tools.lexicon import closure
from satiate.tools.text import AUXILIARIES

SENSES_KEPT = 2  # a verb's first senses by frequency; later ones are rare enough to mislead ("go" for "die")
PERSON_SYNSET = "00007846"  # person.n.01: "a human being", the root of every noun for a kind of person
HYPERNYMS = frozenset({"@", "@i"})  # the pointers from a synset to the more general one it is a kind of
COMMON_NOUN = re.compile(r"[a-z][a-z'-]*")  # one word, lower case: no proper name ("Mason"), no compound
_STEMMER = snowballstemmer.stemmer("english")  # the stemmer the reading layer uses, before its irregular forms
OWN_WORDS = frozenset({"born"})  # a birth, read as a word of its own: not "bear" (carry) in another form


def first_senses(index_verb: Path) -> dict[str, list[str]]:
    """Each verb lemma's synset offsets, most frequent sense first."""
    senses: dict[str, list[str]] = {}
    for line in index_verb.read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue  # the licence header
        fields = line.split()
        lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
        offsets = fields[4 + pointer_count + 2:]
        senses[lemma.replace("_", " ")] = offsets[:synset_count][:SENSES_KEPT]
    return senses


def build(folder: Path) -> dict[str, list[str]]:
    """Synsets (by offset) and the lemmas for which each is one of their first senses, where two lemmas or more share
    it: two words are paraphrases when a common sense is among the first senses of both."""
    holders: dict[str, list[str]] = defaultdict(list)
    for lemma, offsets in first_senses(folder / "index.verb").items():
        for offset in offsets:
            holders[offset].append(lemma)
    return {offset: sorted(lemmas) for offset, lemmas in sorted(holders.items()) if len(lemmas) >= 2}


def irregular_forms(folder: Path) -> dict[str, str]:
    """Each irregular past or participle WordNet's ``verb.exc`` lists, with its verb ("left" -> "leave", "sought" ->
    "seek"): only one-word forms a suffix stemmer cannot join to their verb, and none that is itself a verb's base
    form ("found", "fell", "saw" are verbs of their own, so a text's "found" may be one), an auxiliary ("was", "had":
    function words), a word read on its own (``OWN_WORDS``), or a present participle."""
    lemmas = set(first_senses(folder / "index.verb"))
    forms: dict[str, str] = {}
    for line in (folder / "verb.exc").read_text(encoding="utf-8").splitlines():
        form, base = line.split()[:2]
        if COMMON_NOUN.fullmatch(form) and "'" not in form and "-" not in form and form not in lemmas and \
                form not in AUXILIARIES | OWN_WORDS and not form.endswith("ing") and base in lemmas and \
                _STEMMER.stemWord(form) != _STEMMER.stemWord(base):
            forms.setdefault(form, base)
    return dict(sorted(forms.items()))


def kinds_of(root: str, data_noun: Path) -> set[str]:
    """The offsets of ``root`` and of every noun synset that is, through its hypernyms, a kind of it."""
    narrower: dict[str, set[str]] = defaultdict(set)
    for line in data_noun.read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        at = 4 + 2 * int(fields[3], 16)  # past the synset's words, each with its lexical id
        for pointer in range(int(fields[at])):
            symbol, target, part_of_speech = fields[at + 1 + 4 * pointer: at + 4 + 4 * pointer]
            if symbol in HYPERNYMS and part_of_speech == "n":
                narrower[target].add(fields[0])
    return closure(root, narrower.__getitem__)


def person_nouns(folder: Path) -> list[str]:
    """One-word nouns whose most frequent sense is a kind of person."""
    persons = kinds_of(PERSON_SYNSET, folder / "data.noun")
    nouns = []
    for line in (folder / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        offsets = fields[4 + int(fields[3]) + 2:]
        if offsets and offsets[0] in persons and "_" not in fields[0]:
            nouns.append(fields[0])
    return sorted(nouns)


def noun_graph(folder: Path) -> dict[str, Any]:
    """Every one-word common noun with its senses (synset numbers, most frequent first), and each synset's hypernyms
    and lexicographer file: what "what colour ...?" or "what did she do for a living?" needs to know which plain
    nouns ("navy", "blacksmith") are of the kind asked. Synsets are renumbered densely to keep the file small."""
    parents: dict[str, list[str]] = {}
    lexfiles: dict[str, int] = {}
    instances: set[str] = set()  # a named one ("Mason", the statesman), not a kind: no sense of a common noun
    for line in (folder / "data.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        at = 4 + 2 * int(fields[3], 16)
        pointers = [fields[at + 1 + 4 * pointer: at + 5 + 4 * pointer] for pointer in range(int(fields[at]))]
        parents[fields[0]] = [target for symbol, target, part_of_speech, _ in pointers
                              if symbol in HYPERNYMS and part_of_speech == "n"]
        lexfiles[fields[0]] = int(fields[1])
        if any(symbol == "@i" for symbol, *_ in pointers):
            instances.add(fields[0])
    number = {offset: at for at, offset in enumerate(sorted(parents))}
    senses: dict[str, list[int]] = {}
    for line in (folder / "index.noun").read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        if COMMON_NOUN.fullmatch(fields[0]):
            senses[fields[0]] = [number[offset] for offset in fields[4 + int(fields[3]) + 2:]
                                 if offset not in instances]
    ordered = sorted(parents)
    return {"senses": senses, "parents": [[number[parent] for parent in parents[offset]] for offset in ordered],
            "lexfiles": [lexfiles[offset] for offset in ordered]}


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 1:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    synsets = build(Path(args[0]))
    target = Path(__file__).with_name("verbs.json")
    target.write_text(json.dumps({"source": "WordNet 3.0 (Princeton University), verbs, first "
                                  f"{SENSES_KEPT} senses", "synsets": list(synsets.values())},
                                 separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {target} ({len(synsets)} synsets)")
    nouns = person_nouns(Path(args[0]))
    target = Path(__file__).with_name("persons.json")
    target.write_text(json.dumps({"source": "WordNet 3.0 (Princeton University), nouns whose first sense is a kind "
                                  "of person", "nouns": nouns}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {target} ({len(nouns)} nouns)")
    irregular = irregular_forms(Path(args[0]))
    target = Path(__file__).with_name("irregular.json")
    target.write_text(json.dumps({"source": "WordNet 3.0 (Princeton University), verb.exc: irregular verb forms",
                                  "forms": irregular}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {target} ({len(irregular)} forms)")
    graph = noun_graph(Path(args[0]))
    target = Path(__file__).with_name("nouns.json.gz")
    payload = json.dumps({"source": "WordNet 3.0 (Princeton University), one-word common nouns, their senses and "
                          "hypernyms", **graph}, separators=(",", ":"))
    target.write_bytes(gzip.compress(payload.encode("utf-8"), mtime=0))
    print(f"wrote {target} ({len(graph['senses'])} nouns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
