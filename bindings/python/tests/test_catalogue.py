# SPDX-License-Identifier: MIT
"""The method catalogue in Python: attribute calls with real signatures against the sandbox,
the catalogue's verb, missing arguments refused, AsyncFlickr, and one catalogue everywhere
(the library's table, data/flickr-methods.json, the sandbox's copy, the generated stubs)."""
import asyncio
import inspect
import json
import logging
import subprocess
import sys
import time

import pytest

import flickr
from flickr_sandbox.catalogue import METHODS as SANDBOX_CATALOGUE
from libtest import REPO, endpoints

DATA = json.loads((REPO / "data" / "flickr-methods.json").read_text())


@pytest.fixture
def api(library_path, sandbox):
    with flickr.Flickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                       oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox)) as api:
        yield api


# --- one catalogue ------------------------------------------------------------------------------

def test_library_json_and_sandbox_agree(library_path):
    from_library = flickr.methods()
    assert len(from_library) == DATA["count"] == len(DATA["methods"]) == len(SANDBOX_CATALOGUE) == 223
    for entry, row in zip(DATA["methods"], SANDBOX_CATALOGUE):
        info = from_library[entry["name"]]
        assert (info.name, info.verb, info.permission, list(info.required), list(info.optional), info.doc_url) == \
            (entry["name"], entry["verb"], entry["perms"], entry["required"], entry["optional"], entry["doc"])
        assert row == (entry["name"], entry["verb"], entry["perms"], tuple(entry["required"]),
                       tuple(entry["optional"]))


def test_generated_files_are_current():
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "catalogue.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_regenerating_from_reflection_gives_the_same_catalogue(sandbox, tmp_path):
    """scripts/catalogue.py --live against the sandbox's flickr.reflection: one command, no diff."""
    out = tmp_path / "methods.json"
    dump = tmp_path / "dump.json"
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "catalogue.py"), "--live", "--api-key", sandbox.api_key,
         "--rest-endpoint", sandbox.url + "/services/rest/", "--save-dump", str(dump), "--data", str(out)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text())["methods"] == DATA["methods"]
    # The dump replays offline to the same result.
    again = tmp_path / "again.json"
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "catalogue.py"), "--from-dump", str(dump),
                             "--data", str(again)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(again.read_text())["methods"] == DATA["methods"]


# --- attribute calls ------------------------------------------------------------------------------

def test_signature_and_docstring(api):
    search = api.photos.search
    signature = inspect.signature(search)
    parameters = signature.parameters
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for name, p in parameters.items() if name != "extra")
    assert parameters["text"].default is None and parameters["extra"].kind is inspect.Parameter.VAR_KEYWORD
    get_info = inspect.signature(api.photos.getInfo).parameters
    assert get_info["photo_id"].default is inspect.Parameter.empty
    assert get_info["secret"].default is None
    assert "flickr.photos.getInfo" in api.photos.getInfo.__doc__
    assert "https://www.flickr.com/services/api/flickr.photos.getInfo.html" in api.photos.getInfo.__doc__
    assert "permission delete, POST" in api.photos.delete.__doc__
    # What the library sends itself is no argument of Python's.
    assert "oauth_token" not in inspect.signature(api.auth.oauth.checkToken).parameters
    assert "auth_token" not in inspect.signature(api.auth.checkToken).parameters


def test_attribute_calls_reach_the_sandbox(api):
    answer = api.photos.search(user_id="me", per_page=2)
    assert answer["stat"] == "ok" and len(answer["photos"]["photo"]) == 2
    # Nested groups, and **extra for an argument the catalogue does not list.
    echo = api.test.echo(extra_argument="x")
    assert echo["extra_argument"]["_text"] == "x"
    assert api.auth.oauth.checkToken()["oauth"]["perms"]["_text"] in ("read", "write", "delete")


def test_dir_and_unknown_attributes(api):
    assert {"photos", "groups", "people", "call"} <= set(dir(api))
    assert {"search", "getInfo", "comments"} <= set(dir(api.photos))
    assert "replies" in dir(api.groups.discuss)
    with pytest.raises(AttributeError, match="call it by name"):
        api.photos.notAMethod
    with pytest.raises(AttributeError):
        api.notAGroup


def test_missing_argument_is_refused_without_a_round_trip(api, caplog):
    with caplog.at_level(logging.DEBUG, logger="flickr"):
        with pytest.raises(TypeError, match="photo_id"):
            api.photos.getInfo()
        with pytest.raises(TypeError):
            api.photos.getInfo("123")  # keyword-only
        with pytest.raises(flickr.InvalidArgument, match='"photo_id"'):
            api.call("flickr.photos.getInfo", secret="x")
    assert not [r for r in caplog.records if "flickr.photos.getInfo" in r.getMessage()]  # nothing went out
    api.set_option("check_arguments", 0)
    with pytest.raises(flickr.APIError) as failure:  # now the server answers for itself
        api.call("flickr.photos.getInfo")
    assert failure.value.api_code == 1


def verbs_sent(caplog, method):
    return [r.getMessage().split()[1] for r in caplog.records
            if r.getMessage().startswith(method + " ") and "->" in r.getMessage()]


def test_one_verb_rule_everywhere(api, caplog):
    photo = api.photos.search(user_id="me", per_page=1)["photos"]["photo"][0]
    with caplog.at_level(logging.DEBUG, logger="flickr"):
        api.photos.addTags(photo_id=photo["id"], tags="verb-rule")  # catalogue: POST
        api.call("flickr.photos.addTags", photo_id=photo["id"], tags="verb-rule2")
        api.call_discard("flickr.photos.addTags", photo_id=photo["id"], tags="verb-rule3")
        api.call_async("flickr.photos.addTags", photo_id=photo["id"], tags="verb-rule4").result(timeout=30)
        api.call("flickr.test.echo", post=True)
        api.call_xml("flickr.test.echo")
    assert verbs_sent(caplog, "flickr.photos.addTags") == ["POST"] * 4
    assert verbs_sent(caplog, "flickr.test.echo") == ["POST", "GET"]
    # post=True is the verb, never a parameter (it used to be sent as post=1 with GET).
    assert "post" not in api.call("flickr.test.echo", post=True, a="b")


def test_unknown_methods_still_go_out_with_a_log_line(api, caplog):
    with caplog.at_level(logging.DEBUG, logger="flickr"):
        with pytest.raises(flickr.APIError) as failure:
            api.call("flickr.test.notInTheCatalogue")
    assert failure.value.api_code == 112
    messages = [r.getMessage() for r in caplog.records]
    assert any("not in libflickr's method catalogue: sent as given" in m for m in messages)
    assert verbs_sent(caplog, "flickr.test.notInTheCatalogue") == ["GET"]


def test_sandbox_names_a_method_it_does_not_implement(api):
    with pytest.raises(flickr.APIError) as failure:
        api.stats.getTotalViews()
    assert failure.value.api_code == 2000 and "flickr.stats.getTotalViews" in str(failure.value)
    assert "does not implement" in str(failure.value)
    with pytest.raises(flickr.APIError) as failure:  # Flickr's permission check comes first
        with flickr.Flickr(api.api_key, **{"base_url": api.get_option("base_url")}) as anonymous:
            anonymous.stats.getTotalViews()
    assert failure.value.api_code in (98, 99)


# --- AsyncFlickr --------------------------------------------------------------------------------

def async_client(sandbox, **options):
    return flickr.AsyncFlickr(sandbox.api_key, sandbox.api_secret, oauth_token=sandbox.oauth_token,
                              oauth_token_secret=sandbox.oauth_token_secret, **endpoints(sandbox), **options)


def test_async_calls(library_path, sandbox):
    async def main():
        async with async_client(sandbox) as aapi:
            echo = await aapi.call("flickr.test.echo", a="1")
            search, login = await asyncio.gather(aapi.photos.search(user_id="me", per_page=3), aapi.test.login())
            many = await asyncio.gather(*(aapi.test.echo(n=str(i)) for i in range(50)))
            photo = search["photos"]["photo"][0]
            path = await aapi.fetch_photo(photo, "q")
            with pytest.raises(TypeError):
                await aapi.photos.getInfo()
            with pytest.raises(flickr.APIError):
                await aapi.photos.getInfo(photo_id="1")
            return echo, search, login, many, path, aapi
    echo, search, login, many, path, aapi = asyncio.run(main())
    assert echo["a"]["_text"] == "1" and len(search["photos"]["photo"]) == 3
    assert login["user"]["id"] and [m["n"]["_text"] for m in many] == [str(i) for i in range(50)]
    assert path.is_file() and aapi.closed
    assert inspect.iscoroutinefunction(aapi.photos.search)
    assert inspect.signature(flickr.AsyncFlickr.call).parameters["post"].default is None


def test_async_cancellation_aborts_the_request(library_path, sandbox):
    async def main():
        async with async_client(sandbox) as aapi:
            task = asyncio.ensure_future(aapi.call("flickr.test.echo", sandbox_fault="latency=3000"))
            await asyncio.sleep(0.3)
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            cancelled_in = time.monotonic() - started
            # The object stays usable, and a call after it answers at once.
            again = await aapi.test.echo(after="cancel")
            return cancelled_in, again
    cancelled_in, again = asyncio.run(main())
    assert cancelled_in < 1.0 and again["after"]["_text"] == "cancel"


# --- typing --------------------------------------------------------------------------------------

def test_stubs_type_check_attribute_calls(tmp_path, monkeypatch):
    import mypy.api as mypy  # in requirements-test.txt: a missing mypy fails here, never skips
    good = tmp_path / "good.py"
    good.write_text(
        "import flickr\n"
        "api = flickr.Flickr('key')\n"
        "answer: dict = api.photos.search(text='kitten', per_page=5)\n"
        "api.groups.discuss.replies.getList(group_id='1', topic_id='2', per_page=1)\n"
        "async def main(a: flickr.AsyncFlickr) -> dict:\n"
        "    return await a.photos.getInfo(photo_id='1')\n")
    bad = tmp_path / "bad.py"
    bad.write_text("import flickr\napi = flickr.Flickr('key')\napi.photos.serch(text='x')\n"
                   "api.photos.getInfo()\n")
    monkeypatch.setenv("MYPYPATH", str(REPO / "bindings" / "python"))
    options = ["--no-incremental", "--follow-imports=silent", "--python-version", "3.11"]
    out, err, status = mypy.run(options + [str(good)])
    assert status == 0, out + err
    out, err, status = mypy.run(options + [str(bad)])
    assert status == 1 and 'has no attribute "serch"' in out and '"photo_id"' in out, out
