"""The canonicaliser's properties (hypothesis) and worked examples of its normalisation (design §6)."""

from __future__ import annotations

from urllib.parse import quote

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satiate.engine.canonical import TRACKING_PARAMS, canonical_key, canonical_url, doi_of

LABEL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=10)
SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789-_.~", min_size=1, max_size=12).filter(
    lambda s: s not in {".", ".."})
VALUE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", max_size=8)
PARAM_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6).filter(
    lambda name: name not in TRACKING_PARAMS)
TRACKING_NAME = st.one_of(
    st.sampled_from(sorted(TRACKING_PARAMS)),
    st.builds(lambda suffix: f"utm_{suffix}", st.sampled_from(["source", "medium", "campaign", "term", "content"])),
).map(lambda name: name.upper() if len(name) % 2 else name)  # tracking names are matched case-insensitively
FRAGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_/=?&", max_size=15)


@st.composite
def url_parts(draw) -> dict:
    return {
        "scheme": draw(st.sampled_from(["http", "https"])),
        "www": draw(st.booleans()),
        "host": (".".join(draw(st.lists(LABEL, min_size=1, max_size=3))) + "."
                 + draw(st.sampled_from(["com", "org", "io"]))),
        "port": draw(st.one_of(st.none(), st.integers(1, 65535))),
        "path": draw(st.lists(SEGMENT, max_size=4)),
        "slash": draw(st.booleans()),
        "params": draw(st.lists(st.tuples(PARAM_NAME, VALUE), max_size=4)),
    }


def build(parts: dict, *, tracking: list[tuple[str, str]] = (), fragment: str | None = None,
          upper_host: bool = False) -> str:
    host = ("www." if parts["www"] else "") + parts["host"]
    host = host.upper() if upper_host else host
    port = f":{parts['port']}" if parts["port"] is not None else ""
    path = "/" + "/".join(parts["path"]) + ("/" if parts["slash"] and parts["path"] else "")
    params = list(parts["params"]) + list(tracking)
    query = "?" + "&".join(f"{k}={v}" for k, v in params) if params else ""
    hash_part = f"#{fragment}" if fragment is not None else ""
    return f"{parts['scheme']}://{host}{port}{path}{query}{hash_part}"


@settings(max_examples=150)
@given(url_parts())
def test_canonicalisation_is_idempotent(parts):
    url = build(parts)
    once = canonical_url(url)
    assert canonical_url(once) == once
    assert canonical_key(once) == canonical_key(url)


@settings(max_examples=150)
@given(url_parts(), st.lists(st.tuples(TRACKING_NAME, VALUE), min_size=1, max_size=4), st.randoms())
def test_tracking_parameters_never_change_the_key(parts, tracking, random):
    mixed = dict(parts)
    params = list(parts["params"]) + tracking
    random.shuffle(params)
    mixed["params"] = params
    assert canonical_key(build(mixed)) == canonical_key(build(parts))


@settings(max_examples=150)
@given(url_parts(), FRAGMENT)
def test_fragment_never_changes_the_key(parts, fragment):
    assert canonical_key(build(parts, fragment=fragment)) == canonical_key(build(parts))


@settings(max_examples=100)
@given(url_parts())
def test_www_host_case_and_trailing_slash_never_change_the_key(parts):
    variant = dict(parts, www=not parts["www"], slash=not parts["slash"])
    assert canonical_key(build(variant, upper_host=True)) == canonical_key(build(parts))


def identity(parts: dict) -> tuple:
    """What names the document: host, non-default port, path segments, non-tracking parameters as a multiset."""
    default = 80 if parts["scheme"] == "http" else 443
    port = None if parts["port"] in (None, default) else parts["port"]
    return parts["host"], port, tuple(parts["path"]), tuple(sorted(parts["params"]))


@settings(max_examples=200)
@given(url_parts(), url_parts())
def test_keys_are_equal_exactly_when_the_documents_are(a, b):
    url_a, url_b = build(a), build(b)
    assume(doi_of(url_a) is None and doi_of(url_b) is None)  # a DOI key ignores the rest by design
    assert (canonical_key(url_a) == canonical_key(url_b)) == (identity(a) == identity(b))
    other_scheme = dict(a, scheme="https" if a["scheme"] == "http" else "http", port=None)
    assert canonical_key(build(dict(a, port=None))) == canonical_key(build(other_scheme))  # scheme is not identity


DOI_PREFIX = st.builds(lambda n: f"10.{n}", st.integers(1000, 999_999_999))
DOI_SUFFIX = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:;()",
                              min_size=1, max_size=10).filter(lambda s: s[-1] not in ".,;)" and s[0] != "."),
                      min_size=1, max_size=3).map("/".join)


@st.composite
def dois(draw) -> str:
    return f"{draw(DOI_PREFIX)}/{draw(DOI_SUFFIX)}"


DOI_FORMS = [
    lambda d: f"https://doi.org/{d}",
    lambda d: f"http://dx.doi.org/{d}",
    lambda d: f"https://doi.org/{d.upper()}/",
    lambda d: f"doi:{d}",
    lambda d: f"https://doi.org/{quote(d, safe='')}",
    lambda d: f"https://publisher.example.com/article/{d}?utm_source=feed#abstract",
    lambda d: f"https://www.journal.example/doi/full/{d}&ref=x",
    lambda d: f"https://doi.org/{d}.",
]


@settings(max_examples=150)
@given(dois(), st.sampled_from(range(len(DOI_FORMS))), st.sampled_from(range(len(DOI_FORMS))))
def test_a_doi_in_any_url_form_gives_the_same_key(doi, form_a, form_b):
    key = f"doi:{doi.lower()}"
    assert canonical_key(DOI_FORMS[form_a](doi)) == key == canonical_key(DOI_FORMS[form_b](doi))


def test_seed_examples():
    assert canonical_key("https://www.Example.com/study/?utm_source=x&ref=feed#results") == "url:example.com/study"
    assert canonical_key("https://example.com:443/a//b/") == "url:example.com/a/b"
    assert canonical_key("http://example.com:8080/a?b=2&a=1") == "url:example.com:8080/a?a=1&b=2"
    assert canonical_key("https://doi.org/10.1038/NATURE12373") == "doi:10.1038/nature12373"
    assert canonical_key("anything", doc_id="corpus/a.md") == "doc:corpus/a.md"
    assert doi_of("no doi here") is None
    assert canonical_key("https://example.com:notaport/x") == "url:example.com/x"
    assert canonical_url("http://www.www.com") == canonical_url(canonical_url("http://www.www.com")) == "http://www.com"


def test_press_release_preprint_page_and_doi_page_of_one_study_count_once(write_jsonl, isolated_data_dir):
    """The false-consensus case (design §6), through gather and compress: three routes to one study, one source."""
    from satiate.graph.builder import build_graph
    from satiate.graph.deps import deterministic_engine
    from satiate.nodes.common import Dependencies
    from satiate.tools.search.base import RawHit
    from satiate.tools.search.service import SearchService

    study = "Four-day week trial: output held steady across 61 firms while sick days fell by two thirds. " * 4

    class StudyRoutes:
        name, description = "web", "three routes to one study"

        def search(self, query, max_results):
            return [
                RawHit(title="University press release", url="https://news.example.edu/2024/four-day-week?ref=tw",
                       body=f"{study} Published in Work Studies, doi:10.5555/WS.2024.17."),
                RawHit(title="Journal article", url="https://www.journal.example.org/article/10.5555/ws.2024.17/?utm_source=x",
                       body=study),
                RawHit(title="DOI landing page", url="https://doi.org/10.5555/WS.2024.17", body=study),
                RawHit(title="A different study", url="https://other.example.org/paper",
                       body="Another trial found mixed results in retail firms over two years. " * 5),
            ]

    class PagesAsFound:
        """The page behind each hit, as a fetch would give it: a snippet alone is never a source."""

        def read(self, url, key):
            from satiate.tools.fetch import FetchedPage

            return FetchedPage(url, "read", final_url=url, status=200, content_type="text/html",
                               text=f"{study} Full article at {url}.")

    service = SearchService({"web": StudyRoutes()}, retry_attempts=1)
    deps = Dependencies(engine_for=lambda s: deterministic_engine(), search_for=lambda s: service,
                        reader_for=lambda s: PagesAsFound())
    out = build_graph(deps).invoke({"question": "Does a four-day week keep output?", "settings": {
        "backends": ["web"], "seed": 1, "url_enrich_count": 4, "enrich_max_overlap": 1.0, "max_cycles": 1}})
    keys = [s["url"] for s in out["result"]["sources"]]
    assert len(keys) == 2, keys
