"""Countries as texts name them: by name, by another spelling, or by the adjective for their people.

A question asks "are both from Eastland?" where a source says "an Eastlandish band": the two are one statement. The
names, spellings and demonyms ("Finland", "Republic of Finland", "Finnish") come from the countryinfo package's data
(MIT, pure Python, about 250 countries), read once per process; a text's countries are matched as whole,
capitalised words, so "china" the porcelain and "turkey" the bird are not countries, and two- or three-letter codes
("CD", "IN") are left out as too easily something else.
"""

from __future__ import annotations

import functools
import re

from countryinfo import all_countries

_CODE = re.compile(r"^[A-Z]{2,3}$|\d")


@functools.cache
def _demonyms() -> frozenset[str]:
    return frozenset(part.strip() for country in all_countries() for part in (country.demonym() or "").split("/"))


def is_demonym(word: str) -> bool:
    """The word names a country's people ("Finnish", "Swedish"), not a place."""
    return word in _demonyms()


@functools.cache
def _country_forms() -> tuple[re.Pattern[str], dict[str, frozenset[str]]]:
    """One pattern for every form, and each form's countries (one demonym may name several: "Chinese")."""
    countries: dict[str, set[str]] = {}
    for country in all_countries():
        name = country.name()
        demonyms = (country.demonym() or "").split("/")  # "Serbian/Montenegrin"
        for form in [name, *country.alt_spellings(), *demonyms]:
            form = form.strip()
            if len(form) > 2 and form[:1].isupper() and not _CODE.search(form):
                countries.setdefault(form, set()).add(name)
    alternatives = "|".join(re.escape(form) for form in sorted(countries, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])"), {f: frozenset(c) for f, c in countries.items()}


def countries_named(text: str) -> frozenset[str]:
    """The countries a text names, by name or by demonym ("a Finnish band" names Finland)."""
    pattern, countries = _country_forms()
    return frozenset().union(*(countries[match.group(0)] for match in pattern.finditer(text)))


def country_words(text: str) -> str:
    """The text without its country names and demonyms: what is left of a property once its country is read."""
    pattern, _ = _country_forms()
    return pattern.sub(" ", text)
