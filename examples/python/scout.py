"""Scout from Python through the C shim (ctypes; no compiled extension).

Build the library first:

    go build -buildmode=c-shared -o cshim/libscout.so ./cshim

then:

    python3 examples/python/scout.py [--lib PATH] [ROOT]

It finds Go files under ROOT (default: the current directory), checks that
bad input (arguments or options that are not JSON, NULL and non-UTF-8
strings, unknown tools, a root that does not exist, an unknown call id)
gives error Envelopes, passes host options (text style, no web, a timeout),
cancels a running call from another thread, pages a web page from the
library's cache, makes 100 calls from 100 threads, and prints
"python example: ok".
"""

import ctypes
import http.server
import json
import os
import socket
import sys
import threading
import time


# The libscout ABI this wrapper speaks (scout_abi_version).
ABI_VERSION = 2


class Scout:
    """A thin wrapper over libscout: every call returns the Standard Envelope as a dict."""

    def __init__(self, lib_path):
        self._lib = ctypes.CDLL(lib_path)
        # Returned strings are Go-allocated: keep them as void pointers so we can free them.
        self._lib.scout_call.restype = ctypes.c_void_p
        self._lib.scout_call.argtypes = [ctypes.c_char_p] * 4
        self._lib.scout_call_opts.restype = ctypes.c_void_p
        self._lib.scout_call_opts.argtypes = [ctypes.c_char_p] * 5
        self._lib.scout_cancel.restype = ctypes.c_void_p
        self._lib.scout_cancel.argtypes = [ctypes.c_longlong]
        self._lib.scout_version.restype = ctypes.c_void_p
        self._lib.scout_free.argtypes = [ctypes.c_void_p]
        self._lib.scout_abi_version.restype = ctypes.c_int
        if self.abi_version() != ABI_VERSION:
            raise RuntimeError("%s speaks ABI %d; this wrapper needs %d" % (lib_path, self.abi_version(), ABI_VERSION))

    def _take(self, ptr):
        try:
            return ctypes.string_at(ptr).decode("utf-8")
        finally:
            self._lib.scout_free(ptr)

    def version(self):
        return self._take(self._lib.scout_version())

    def abi_version(self):
        return self._lib.scout_abi_version()

    def call(self, tool, args, toolset="pi", root=None, options=None):
        """Runs a tool and returns its Envelope as a dict.

        args is a dict (sent as JSON), or str/bytes sent as they are; None for
        toolset, tool, args or root passes NULL (toolset "pi", arguments {},
        the current directory; a NULL tool is an error Envelope).

        options (a dict, or str/bytes sent as they are) are the host settings
        of scout_call_opts: style, context_before, context_after, read_limit,
        no_web, allow_private_network, zoekt, timeout_ms, call_id. With call_id set,
        cancel(call_id) from
        another thread ends the call (ctypes releases the GIL while it runs).
        """
        if isinstance(args, dict):
            args = json.dumps(args)
        if options is None:
            ptr = self._lib.scout_call(_c(toolset), _c(tool), _c(args), _c(root))
        else:
            if isinstance(options, dict):
                options = json.dumps(options)
            ptr = self._lib.scout_call_opts(_c(toolset), _c(tool), _c(args), _c(root), _c(options))
        return json.loads(self._take(ptr))

    def cancel(self, call_id):
        """Cancels the running call with this call_id; returns an Envelope dict
        (success, or NOT_FOUND when no running call has the id)."""
        return json.loads(self._take(self._lib.scout_cancel(call_id)))


def _c(s):
    """A C string argument: None is NULL, str is UTF-8, bytes go as they are."""
    return s.encode("utf-8") if isinstance(s, str) else s


def check(ok, what, got):
    """Exits with status 1 when a check fails (asserts vanish under python -O)."""
    if not ok:
        sys.exit("FAIL %s: %r" % (what, got))


def main():
    argv = sys.argv[1:]
    lib = os.path.join(os.path.dirname(__file__), "..", "..", "cshim", "libscout.so")
    if argv[:1] == ["--lib"]:
        lib, argv = argv[1], argv[2:]
    root = os.path.abspath(argv[0] if argv else ".")
    s = Scout(lib)
    print("scout", s.version(), "abi", s.abi_version())

    env = s.call("find", {"paths": ["**/*.go"], "limit": 3}, root=root)
    check(env["status"] in ("success", "partial"), "find", env)
    print(env["text"])

    # Bad input gives error Envelopes, never a crash.
    def expect_error(what, env, code, text):
        check(env["status"] == "error" and env["error"]["code"] == code and text in env["error"]["message"], what, env)
        print("error envelope (%s): %s" % (what, env["error"]["message"]))

    expect_error("wrong field type", s.call("find", {"paths": "not-an-array"}, root=root), "INVALID_PARAM", "'paths'")
    expect_error("not JSON", s.call("find", "{not json", root=root), "INVALID_PARAM", "not valid JSON")
    expect_error("not an object", s.call("find", "[1]", root=root), "INVALID_PARAM", "JSON object")
    expect_error("unknown tool", s.call("nope", {}, root=root), "INVALID_PARAM", "Unknown tool 'nope'")
    expect_error("unknown toolset", s.call("find", {}, toolset="nope", root=root), "INVALID_PARAM", "Unknown toolset 'nope'")
    expect_error("NULL tool", s.call(None, None, toolset=None, root=None), "INVALID_PARAM", "tool is NULL")
    expect_error("non-UTF-8 arguments", s.call("find", b'{"paths": ["\xff"]}', root=root), "INVALID_PARAM", "not valid UTF-8")
    expect_error("missing root", s.call("find", {}, root="/nonexistent/scout-root"), "NOT_FOUND", "does not exist")
    expect_error("root is a file", s.call("find", {}, root=os.path.abspath(__file__)), "INVALID_PARAM", "not a directory")

    expect_error("options not JSON", s.call("find", {"paths": ["*"]}, root=root, options="{bad"), "INVALID_PARAM", "options must be a JSON object")
    expect_error("unknown option", s.call("find", {"paths": ["*"]}, root=root, options={"colour": 1}), "INVALID_PARAM", 'unknown field "colour"')
    expect_error("non-UTF-8 options", s.call("find", {"paths": ["*"]}, root=root, options=b'{"style": "\xff"}'), "INVALID_PARAM", "options is not valid UTF-8")
    expect_error("unknown call id", s.cancel(987654), "NOT_FOUND", "No running call has call_id 987654")

    # Host options: the plain style has no hashline header.
    env = s.call("read", {"path": "README.md"}, root=root, options={"style": "plain"})
    check(env["status"] in ("success", "partial") and not env["text"].startswith("\u00b6"), "style plain", env)
    check(s.call("read", {"path": "README.md"}, root=root)["text"].startswith("\u00b6"), "style hashline (default)", env)
    print("options: ok")

    # A server that accepts connections and never answers: a call to it runs
    # until it is canceled or times out. It listens on a loopback address,
    # which Scout reads only with allow_private_network.
    local = {"allow_private_network": True}
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    slow_url = "http://127.0.0.1:%d/slow" % silent.getsockname()[1]
    expect_error("no_web", s.call("read", {"path": slow_url}, root=root, options={"no_web": True}), "UNSUPPORTED", "turned off by the host")
    expect_error("private address", s.call("read", {"path": slow_url}, root=root), "ACCESS_DENIED", "127.0.0.1 is a loopback address")
    expect_error("timeout_ms", s.call("read", {"path": slow_url}, root=root, options={"timeout_ms": 200, **local}), "TIMEOUT", "")
    canceled = []
    t = threading.Thread(target=lambda: canceled.append(s.call("read", {"path": slow_url}, root=root, options={"call_id": 7, **local})))
    t.start()
    deadline = time.time() + 10
    while time.time() < deadline:
        if s.cancel(7)["status"] == "success":
            break
        time.sleep(0.01)  # the call has not started yet
    t.join(10)
    check(not t.is_alive() and canceled and canceled[0]["status"] == "error" and canceled[0]["error"]["code"] == "CANCELED", "cancel", canceled)
    silent.close()
    print("cancel: ok")

    # Paging a web page reads it once: the library caches pages per process.
    requests = []
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            body = "".join("line %d\n" % i for i in range(1, 401)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page_url = "http://127.0.0.1:%d/page.txt" % server.server_address[1]
    first = s.call("read", {"path": page_url}, root=root, options=local)
    nxt = s.call("read", {"path": page_url + ":301"}, root=root, options=local)
    server.shutdown()
    check("line 1" in first["text"] and "line 301" in nxt["text"] and len(requests) == 1, "url cache", (first, nxt, requests))
    print("url cache: ok")

    # Many threads at once, all three tools: the library is safe for concurrent use.
    calls = [
        ("find", {"paths": ["*.md"], "limit": 5}),
        ("search", {"pattern": "package", "paths": ["**/*.go"]}),
        ("read", {"path": "."}),
    ]
    results = []
    def worker(i):
        tool, args = calls[i % len(calls)]
        results.append(s.call(tool, args, root=root)["status"])
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(len(results) == 100 and all(r in ("success", "partial") for r in results), "100 concurrent calls", results)
    print("100 concurrent calls: ok")
    print("python example: ok")


if __name__ == "__main__":
    main()
