"""Canonical source identity (design §6): the same study reached by three routes counts once.

A DOI is the strongest key; otherwise the URL is normalised: scheme and ``www.`` dropped, host lower-cased, default
port, fragment and tracking parameters removed, trailing slash dropped, remaining query parameters sorted. Local
documents are keyed by their document id.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>&?#]+)", re.IGNORECASE)
TRACKING_PARAMS = frozenset(
    {"ref", "ref_src", "fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "igshid", "yclid", "_hsenc", "_hsmi"}
)


def doi_of(text: str) -> str | None:
    """The DOI in a URL or string, lower-cased and without trailing punctuation or slash."""
    match = _DOI.search(unquote(text))
    if not match:
        return None
    # "https://doi.org/10.1000/x/" and "...10.1000/x." name the same DOI as "10.1000/x".
    return match.group(1).rstrip(".,;)]/").lower()


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith("utm_") or lowered in TRACKING_PARAMS


def _normalized_parts(url: str) -> tuple[str, str, str, str]:
    """(scheme, host[:port], path, query) with every part that does not change the document removed."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    while host.startswith("www.") and "." in host[4:]:  # "www.www.com" is "www.com": a bare "com" is no host
        host = host[4:]
    if ":" in host:  # an IPv6 literal keeps its brackets so the key stays readable as a URL authority
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:  # a malformed port is not part of the identity
        port = None
    if port and not ((parts.scheme == "http" and port == 80) or (parts.scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    path = re.sub(r"/{2,}", "/", parts.path or "").rstrip("/")
    params = sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k))
    query = f"?{urlencode(params)}" if params else ""
    return parts.scheme.lower(), host, path, query


def canonical_url(url: str) -> str:
    """The URL with fragment, tracking parameters, ``www.``, default port and trailing slash removed.

    Idempotent: ``canonical_url(canonical_url(u)) == canonical_url(u)``, and it has the same ``canonical_key``.
    """
    scheme, host, path, query = _normalized_parts(url)
    return f"{scheme}://{host}{path}{query}" if scheme else f"{host}{path}{query}"


def sole_doi(text: str) -> str | None:
    """The DOI a text names, if it names exactly one (a press release about one study); None for none or several."""
    found = {match.rstrip(".,;)]/").lower() for match in _DOI.findall(unquote(text))}
    return found.pop() if len(found) == 1 else None


def canonical_key(url: str, doc_id: str | None = None, text: str = "") -> str:
    """The store key of a source: ``doc:<id>`` for local documents, ``doi:<doi>``, else ``url:<host><path>[?q]``.

    A page whose URL has no DOI but whose text names exactly one (the press release or blog post about a study)
    is keyed by that DOI, so the study reached through three routes counts once (no false consensus: design §6).
    """
    if doc_id:
        return f"doc:{doc_id}"
    doi = doi_of(url) or sole_doi(text)
    if doi:
        return f"doi:{doi}"
    _, host, path, query = _normalized_parts(url)
    return f"url:{host}{path}{query}"
