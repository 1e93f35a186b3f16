"""Key actors are names: a common word that opens sentences in several sources is not profiled as one."""

from __future__ import annotations

from satiate.engine.actors import key_actors


def source(number: int, title: str, text: str) -> dict:
    return {"id": f"S{number}", "key": f"k{number}", "url": f"https://notes.example/{number}", "title": title,
            "text": text, "backend": "corpus", "read_kind": "passage", "query": "q", "angle": "direct", "cycle": 1,
            "round": 0, "doc_id": f"d{number}"}


def test_a_word_the_sources_also_write_in_lower_case_is_no_key_actor():
    sources = [
        source(1, "Kiln firing", "Optional vents are opened by the stoker when the kiln is fired. Tamsin Roe is a "
               "potter who fires the kiln at dawn."),
        source(2, "Kiln glazes", "Optional glazes are mixed in the shed before the kiln is fired. Tamsin Roe is "
               "the glaze keeper of the kiln."),
        # the common word in lower case, in a table row no sentence reader quotes
        source(3, "Kiln vents", "Optional vents let the heat out of the kiln. Optional glazes are mixed by the "
               "stoker.\n\n| vent | optional |"),
    ]
    names = [actor["name"] for actor in key_actors("How is the kiln fired?", sources)]
    assert names == ["Tamsin Roe"]
