"""Scout from Python through the C shim (ctypes; no compiled extension).

Build the library first:

    go build -buildmode=c-shared -o cshim/libscout.so ./cshim

then:

    python3 examples/python/scout.py [--lib PATH] [ROOT]
"""

import ctypes
import json
import os
import sys
import threading


class Scout:
    """A thin wrapper over libscout: every call returns the Standard Envelope as a dict."""

    def __init__(self, lib_path):
        self._lib = ctypes.CDLL(lib_path)
        # Returned strings are Go-allocated: keep them as void pointers so we can free them.
        self._lib.scout_call.restype = ctypes.c_void_p
        self._lib.scout_call.argtypes = [ctypes.c_char_p] * 4
        self._lib.scout_version.restype = ctypes.c_void_p
        self._lib.scout_free.argtypes = [ctypes.c_void_p]
        self._lib.scout_abi_version.restype = ctypes.c_int

    def _take(self, ptr):
        try:
            return ctypes.string_at(ptr).decode("utf-8")
        finally:
            self._lib.scout_free(ptr)

    def version(self):
        return self._take(self._lib.scout_version())

    def abi_version(self):
        return self._lib.scout_abi_version()

    def call(self, tool, args, toolset="pi", root=None):
        enc = lambda s: None if s is None else s.encode("utf-8")
        ptr = self._lib.scout_call(enc(toolset), enc(tool), enc(json.dumps(args)), enc(root))
        return json.loads(self._take(ptr))


def main():
    argv = sys.argv[1:]
    lib = os.path.join(os.path.dirname(__file__), "..", "..", "cshim", "libscout.so")
    if argv[:1] == ["--lib"]:
        lib, argv = argv[1], argv[2:]
    root = os.path.abspath(argv[0] if argv else ".")
    s = Scout(lib)
    print("scout", s.version(), "abi", s.abi_version())

    env = s.call("find", {"paths": ["**/*.go"], "limit": 3}, root=root)
    assert env["status"] in ("success", "partial"), env
    print(env["text"])

    bad = s.call("find", {"paths": "not-an-array"}, root=root)
    assert bad["status"] == "error" and bad["error"]["code"] == "INVALID_PARAM", bad
    print("error envelope:", bad["error"]["message"])

    unknown = s.call("nope", {}, root=root)
    assert unknown["status"] == "error", unknown

    # Many threads at once: the library is safe for concurrent use.
    results = []
    def worker():
        results.append(s.call("find", {"paths": ["*.md"], "limit": 5}, root=root)["status"])
    threads = [threading.Thread(target=worker) for _ in range(100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 100 and all(r in ("success", "partial") for r in results), results
    print("100 concurrent calls: ok")


if __name__ == "__main__":
    main()
