/* Scout from C through the shared library.
 *
 *   go build -buildmode=c-shared -o cshim/libscout.so ./cshim
 *   cc -o /tmp/scout-c examples/c/main.c -Icshim -Lcshim -lscout -Wl,-rpath,$PWD/cshim
 *   /tmp/scout-c .
 */
#include <stdio.h>
#include <string.h>
#include "libscout.h"

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    char *v = scout_version();
    printf("scout %s abi %d\n", v, scout_abi_version());
    scout_free(v);

    char *env = scout_call("pi", "find", "{\"paths\": [\"**/*.go\"], \"limit\": 3}", (char *)root);
    printf("%s\n", env);
    int ok = strstr(env, "\"status\":\"success\"") != NULL || strstr(env, "\"status\":\"partial\"") != NULL;
    scout_free(env);

    /* Bad input: a NULL tool name and arguments that are not JSON give error envelopes, never a crash. */
    char *bad = scout_call(NULL, NULL, NULL, NULL);
    int bad_ok = strstr(bad, "\"status\":\"error\"") != NULL;
    scout_free(bad);
    char *notjson = scout_call("pi", "find", "{not json", (char *)root);
    int notjson_ok = strstr(notjson, "INVALID_PARAM") != NULL;
    scout_free(notjson);

    if (!ok || !bad_ok || !notjson_ok) {
        fprintf(stderr, "unexpected result (ok=%d bad=%d notjson=%d)\n", ok, bad_ok, notjson_ok);
        return 1;
    }
    printf("c example: ok\n");
    return 0;
}
