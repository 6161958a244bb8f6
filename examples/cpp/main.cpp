// Scout from C++ through the shared library: string literals go straight
// to the const char* parameters, and a unique_ptr releases each answer.
//
//   go build -buildmode=c-shared -o cshim/libscout.so ./cshim
//   c++ -std=c++17 -Wall -Wextra -Werror -o /tmp/scout-cpp examples/cpp/main.cpp -Icshim -Lcshim -lscout -Wl,-rpath,$PWD/cshim
//   /tmp/scout-cpp .
//
// It finds the Go files under the root, reads the first lines of a file
// with plain options, and prints "c++ example: ok" when each answer has the
// status it should.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "libscout.h"

namespace {

// answer owns a string Scout returned.
using answer = std::unique_ptr<char, decltype(&scout_free)>;

answer call(const char *tool, const char *args, const std::string &root, const char *options = nullptr) {
    return answer(scout_call_opts("pi", tool, args, root.c_str(), options), &scout_free);
}

// ok reports whether an Envelope is a result (success or partial).
bool ok(const answer &env) {
    return std::strstr(env.get(), "\"status\":\"error\"") == nullptr;
}

}  // namespace

int main(int argc, char **argv) {
    const std::string root = argc > 1 ? argv[1] : ".";
    int failures = 0;

    answer version(scout_version(), &scout_free);
    std::printf("scout %s abi %d\n", version.get(), scout_abi_version());

    answer found = call("find", "{\"paths\": [\"**/*.go\"], \"limit\": 3}", root);
    std::printf("%s\n", found.get());
    failures += !ok(found);

    answer missing = call("read", "{\"path\": \"no/such/file.txt\"}", root);
    failures += ok(missing);  // an error Envelope, not a crash

    answer bad = call("find", "{}", root, "{\"style\": \"numbered\", \"read_limit\": 5}");
    failures += ok(bad);  // find needs paths: an error Envelope naming them

    if (failures) {
        std::fprintf(stderr, "c++ example: %d failures\n", failures);
        return 1;
    }
    std::printf("c++ example: ok\n");
    return 0;
}
