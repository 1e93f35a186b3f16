"""Build ``verbs.json`` from a WordNet 3.0 ``dict`` folder (its ``index.verb`` and ``data.verb``).

    python -m satiate.tools.lexicon.build /path/to/wordnet/dict

Run once by a maintainer; the package ships the result, so nothing is fetched or built at run time. It keeps, for each
verb, only its most frequent senses (WordNet lists a word's senses by frequency), and of those only the synsets
that hold at least two words: the relation paraphrases a reader needs ("established" for "founded", "wed" for
"married"), not every rare sense a word can have.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

SENSES_KEPT = 2  # a verb's first senses by frequency; later ones are rare enough to mislead ("go" for "die")


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
