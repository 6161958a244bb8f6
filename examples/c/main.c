/* Scout from C through the shared library.
 *
 *   go build -buildmode=c-shared -o cshim/libscout.so ./cshim
 *   cc -o /tmp/scout-c examples/c/main.c -Icshim -Lcshim -lscout -lpthread -Wl,-rpath,$PWD/cshim
 *   /tmp/scout-c .
 *
 * It finds Go files under the root, then checks that bad input (NULL and
 * non-UTF-8 strings, arguments that are not JSON, a root that does not
 * exist or is a file) gives error Envelopes, and makes 100 calls from 100
 * threads. It prints "c example: ok" and exits 0 when every check passed.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "libscout.h"

static int failures;

/* expect calls the tool, checks that the Envelope contains want, prints
 * the outcome and frees the Envelope. */
static void expect(const char *what, char *toolset, char *tool, char *args, char *root, const char *want) {
    char *env = scout_call(toolset, tool, args, root);
    if (env == NULL || strstr(env, want) == NULL) {
        fprintf(stderr, "FAIL %s: want %s in %s\n", what, want, env ? env : "(NULL)");
        failures++;
    } else {
        printf("ok   %s\n", what);
    }
    scout_free(env);
}

static char *thread_root;

/* The calls the threads make, in turn: all three tools. */
static char *thread_calls[][2] = {
    {"find", "{\"paths\": [\"*.md\"], \"limit\": 5}"},
    {"search", "{\"pattern\": \"package\", \"paths\": [\"**/*.go\"]}"},
    {"read", "{\"path\": \".\"}"},
};

struct job {
    int index;
    int ok;
};

static void *worker(void *arg) {
    struct job *j = arg;
    char **call = thread_calls[j->index % 3];
    char *env = scout_call("pi", call[0], call[1], thread_root);
    j->ok = strstr(env, "\"status\":\"error\"") == NULL;
    scout_free(env);
    return NULL;
}

int main(int argc, char **argv) {
    char *root = argc > 1 ? argv[1] : ".";
    char *v = scout_version();
    printf("scout %s abi %d\n", v, scout_abi_version());
    scout_free(v);

    char *env = scout_call("pi", "find", "{\"paths\": [\"**/*.go\"], \"limit\": 3}", root);
    printf("%s\n", env);
    if (strstr(env, "\"status\":\"success\"") == NULL && strstr(env, "\"status\":\"partial\"") == NULL) {
        fprintf(stderr, "FAIL find: %s\n", env);
        failures++;
    }
    scout_free(env);

    expect("NULL tool name", NULL, NULL, NULL, NULL, "tool is NULL");
    expect("NULL toolset means pi", NULL, "find", "{\"paths\": [\"**/*.go\"], \"limit\": 1}", root, "{\"status\":\"partial\",\"data\":{\"fileCount\":1,");
    expect("NULL arguments mean {}", "pi", "find", NULL, root, "must contain non-empty globs");
    expect("arguments that are not JSON", "pi", "find", "{not json", root, "INVALID_PARAM");
    expect("arguments that are not an object", "pi", "find", "[1, 2]", root, "must be a JSON object");
    expect("wrong field type", "pi", "find", "{\"paths\": 7}", root, "'paths'");
    expect("non-UTF-8 arguments", "pi", "find", "{\"paths\": [\"\xff\xfe\"]}", root, "json_args is not valid UTF-8");
    expect("non-UTF-8 root", "pi", "find", "{}", "/tmp/\xc3\x28", "root is not valid UTF-8");
    expect("unknown toolset", "nope", "find", "{}", root, "Unknown toolset 'nope'");
    expect("unknown tool", "pi", "nope", "{}", root, "Unknown tool 'nope'");
    expect("root that does not exist", "pi", "find", "{}", "/nonexistent/scout-root", "does not exist");
    expect("root that is a file", "pi", "find", "{}", argv[0], "is not a directory");

    /* 100 threads at once, all three tools: the library is safe for concurrent use. */
    enum { N = 100 };
    pthread_t threads[N];
    struct job jobs[N];
    thread_root = root;
    for (int i = 0; i < N; i++) {
        jobs[i].index = i;
        jobs[i].ok = 0;
        if (pthread_create(&threads[i], NULL, worker, &jobs[i]) != 0) {
            fprintf(stderr, "FAIL pthread_create\n");
            return 1;
        }
    }
    int good = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(threads[i], NULL);
        good += jobs[i].ok;
    }
    if (good != N) {
        fprintf(stderr, "FAIL concurrent calls: %d of %d succeeded\n", good, N);
        failures++;
    } else {
        printf("ok   %d concurrent calls\n", N);
    }

    if (failures) {
        fprintf(stderr, "c example: %d failures\n", failures);
        return 1;
    }
    printf("c example: ok\n");
    return 0;
}
