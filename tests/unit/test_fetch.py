"""Page fetching against a real HTTP server on loopback: outcomes, limits, and the SSRF guard."""

from __future__ import annotations

import ipaddress

import pytest

from satiate.tools.fetch import AddressPolicy, FetchLimits, PageFetcher, address_refusal, extract_text
from support.loopback_pages import HUGE_BYTES, LoopbackSite

LIMITS = FetchLimits(timeout_s=2.0, max_bytes=200_000, max_redirects=3, min_chars=200, max_chars=20_000)
OPEN = AddressPolicy(allow_private=True)


@pytest.fixture(scope="module")
def site():
    with LoopbackSite() as running:
        yield running


@pytest.fixture(scope="module")
def fetcher():
    fetcher = PageFetcher(LIMITS, OPEN)
    yield fetcher
    fetcher.close()


def no_dns(host: str, port: int) -> list[str]:
    raise AssertionError(f"the resolver must not be asked for {host}")


# --- outcomes ---------------------------------------------------------------------------------------------------------
def test_article_is_read_as_main_text_without_boilerplate(site, fetcher):
    page = fetcher.fetch(site.url("/article/alpha"))
    assert page.outcome == "read" and page.status == 200 and page.content_type == "text/html"
    assert "alpha study measured how generators" in page.text
    assert "Copyright footer" not in page.text and "About" not in page.text.split()
    assert page.title == "Article alpha"


def test_plain_text_is_read_as_is(site, fetcher):
    page = fetcher.fetch(site.url("/plain"))
    assert page.outcome == "read" and page.text.startswith("The plain study")


@pytest.mark.parametrize("path", ["/thin", "/shell"])
def test_page_with_too_little_text_is_thin_not_read(site, fetcher, path):
    page = fetcher.fetch(site.url(path))
    assert page.outcome == "thin" and not page.readable
    assert len(page.text) < LIMITS.min_chars and "not a page read" in page.error


@pytest.mark.parametrize("path, status", [("/missing", 404), ("/error", 500)])
def test_http_errors_are_classified_with_their_status(site, fetcher, path, status):
    page = fetcher.fetch(site.url(path))
    assert page.outcome == "http_error" and page.status == status and page.text == ""
    assert page.storable is (status == 404)  # a 404 is the page's answer; a 500 may pass


@pytest.mark.parametrize("path", ["/binary", "/image"])
def test_binary_bodies_are_refused_before_reading(site, fetcher, path):
    page = fetcher.fetch(site.url(path))
    assert page.outcome == "unsupported" and page.bytes_read == 0 and "content type" in page.error


def test_huge_body_is_streamed_only_up_to_the_cap(site, fetcher):
    page = fetcher.fetch(site.url("/huge"))
    assert page.truncated and page.bytes_read == LIMITS.max_bytes
    assert page.outcome == "read" and "filler text" in page.text
    assert site.huge_bytes_sent < HUGE_BYTES  # the server was cut off; the rest was never downloaded


def test_slow_server_times_out_as_a_failure(site):
    fetcher = PageFetcher(FetchLimits(timeout_s=0.3), OPEN)
    page = fetcher.fetch(site.url("/slow?delay=3"))
    assert page.outcome == "failed" and "timed out" in page.error and not page.storable


def test_trickling_body_hits_the_whole_fetch_deadline(site):
    fetcher = PageFetcher(FetchLimits(timeout_s=0.5), OPEN)  # each read is fast; the whole body is not
    page = fetcher.fetch(site.url("/trickle"))
    assert page.outcome == "failed" and "reading the body" in page.error


def test_redirects_are_followed_up_to_the_cap(site, fetcher):
    target = site.url("/article/beta")
    page = fetcher.fetch(site.url(f"/redirect?to={target}"))
    assert page.outcome == "read" and page.final_url == target and page.redirects == [target]

    looping = fetcher.fetch(site.url("/loop/0"))
    assert looping.outcome == "failed" and "more than 3 redirects" in looping.error
    assert len(looping.redirects) == LIMITS.max_redirects + 1


def test_unreachable_host_is_a_failure_not_an_exception():
    fetcher = PageFetcher(LIMITS, OPEN, resolver=lambda host, port: (_ for _ in ()).throw(OSError("no such host")))
    page = fetcher.fetch("http://nowhere.invalid/page")
    assert page.outcome == "failed" and "cannot resolve nowhere.invalid" in page.error


# --- the SSRF guard ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("url", ["ftp://example.com/file", "file:///etc/passwd", "gopher://example.com/",
                                 "example.com"])
def test_only_http_and_https_are_fetched(url):
    page = PageFetcher(LIMITS, AddressPolicy(), resolver=no_dns).fetch(url)
    assert page.outcome == "refused" and "only http and https" in page.error


@pytest.mark.parametrize("address, reason", [
    ("127.0.0.1", "loopback"), ("::1", "loopback"), ("10.0.0.5", "private"), ("192.168.1.1", "private"),
    ("172.16.0.1", "private"), ("169.254.169.254", "metadata"), ("fe80::1", "link-local"), ("0.0.0.0", "unspecified"),
    ("::ffff:127.0.0.1", "loopback"), ("100.64.0.1", "not a public"), ("224.0.0.1", "multicast"),
    ("240.0.0.1", "reserved"), ("fd00:ec2::254", "metadata"),
])
def test_non_public_addresses_are_refused(address, reason):
    assert reason in address_refusal(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "1.1.1.1"])
def test_public_addresses_pass(address):
    assert address_refusal(ipaddress.ip_address(address)) is None


def test_hostname_resolving_to_a_private_address_is_refused_without_connecting(site):
    fetcher = PageFetcher(LIMITS, AddressPolicy(), resolver=lambda host, port: ["10.0.0.5"])
    page = fetcher.fetch("http://intranet.example/admin")
    assert page.outcome == "refused" and "intranet.example resolves to 10.0.0.5, a private address" in page.error


def test_any_private_address_in_the_dns_answer_is_refused():
    fetcher = PageFetcher(LIMITS, AddressPolicy(), resolver=lambda host, port: ["93.184.216.34", "192.168.0.10"])
    page = fetcher.fetch("http://mixed.example/")
    assert page.outcome == "refused" and "192.168.0.10" in page.error


def test_literal_loopback_url_is_refused_by_default(site):
    before = site.hits["/article/gamma"]
    page = PageFetcher(LIMITS, AddressPolicy()).fetch(site.url("/article/gamma"))
    assert page.outcome == "refused" and "loopback" in page.error
    assert site.hits["/article/gamma"] == before  # never connected


def test_redirect_to_loopback_is_refused_after_the_first_hop():
    # The "public" server stands on 127.0.0.2, which this policy trusts; the redirect points at 127.0.0.1.
    with LoopbackSite(host="127.0.0.2") as public:
        policy = AddressPolicy(trusted_networks=(ipaddress.ip_network("127.0.0.2/32"),))
        fetcher = PageFetcher(LIMITS, policy, resolver=lambda host, port: ["127.0.0.2"])
        assert fetcher.fetch(public.url("/article/ok", host="news.example")).outcome == "read"
        secret = f"http://127.0.0.1:{public.port}/article/secret"
        page = fetcher.fetch(public.url(f"/redirect?to={secret}", host="news.example"))
    assert page.outcome == "refused" and page.redirects == [secret] and "127.0.0.1" in page.error
    assert public.hits["/article/secret"] == 0


def test_connections_are_pinned_to_the_vetted_address():
    # "pinned.example" exists only in the injected resolver: the fetch succeeds only if the connection goes to the
    # address the guard vetted, not to a second (system) DNS lookup that an attacker could answer differently.
    with LoopbackSite(host="127.0.0.2") as public:
        calls: list[str] = []

        def resolver(host: str, port: int) -> list[str]:
            calls.append(host)
            return ["127.0.0.2"]

        policy = AddressPolicy(trusted_networks=(ipaddress.ip_network("127.0.0.2/32"),))
        page = PageFetcher(LIMITS, policy, resolver=resolver).fetch(public.url("/article/pin", host="pinned.example"))
    assert page.outcome == "read" and calls == ["pinned.example"]


def test_metadata_address_stays_refused_even_when_private_addresses_are_allowed():
    fetcher = PageFetcher(LIMITS, AddressPolicy(allow_private=True), resolver=lambda host, port: ["169.254.169.254"])
    page = fetcher.fetch("http://metadata.example/latest/meta-data/")
    assert page.outcome == "refused" and "metadata" in page.error


# --- extraction -------------------------------------------------------------------------------------------------------
def test_extraction_falls_back_to_the_stdlib_extractor_when_trafilatura_finds_nothing():
    html = ("<html><head><title>Table only</title></head><body><table><tr><td>" + "cell words " * 40
            + "</td></tr></table></body></html>")
    title, text = extract_text(html, "text/html")
    assert "cell words" in text and title
